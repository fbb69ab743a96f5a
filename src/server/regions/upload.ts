import type { InputLimits } from '../config/config.js';
import { LimitExceeded } from '../config/input-limits.js';
import type { StreamTask } from '../workers/tasks.js';
import { GeometryError, parseAreaGeometry, vertexCount } from './geometry.js';
import type { Shape } from './store.js';

export const MAX_UPLOAD_FEATURES = 50_000;
export const MAX_UPLOAD_VERTICES = 20_000_000;

/** Property names tried, in order, for a shape's code and name when the uploader does not say. */
const CODE_PROPERTIES = [
  'code',
  'postal_code',
  'zip',
  'zipcode',
  'ZCTA5CE20',
  'ZCTA5CE10',
  'ZCTA5',
  'GEOID20',
  'GEOID10',
  'GEOID',
  'id',
];
const NAME_PROPERTIES = ['name', 'NAME', 'Name', 'NAME20', 'NAME10', 'label'];

export class UploadError extends Error {}

function pick(properties: Record<string, unknown>, preferred: string | undefined, fallbacks: string[]): string | null {
  for (const key of preferred ? [preferred] : fallbacks) {
    const value = properties[key];
    if (value !== undefined && value !== null && String(value).trim() !== '') return String(value).trim().slice(0, 200);
  }
  return null;
}

export interface GeoJsonOptions {
  geometryType: Shape['geometry_type'];
  nameProperty?: string;
  codeProperty?: string;
  /** Features at most (rows), properties of a feature (columns), bytes of a property's value (cells). */
  limits: Pick<InputLimits, 'rows' | 'columns' | 'cellBytes'>;
}

/** The bytes of a property's value as the file holds it (a string's own; anything else as JSON). */
const valueBytes = (value: unknown) =>
  typeof value === 'string'
    ? Buffer.byteLength(value)
    : value && typeof value === 'object'
      ? JSON.stringify(value).length
      : 0;

/**
 * Reads an uploaded GeoJSON file (a FeatureCollection, one Feature, or a bare Polygon/MultiPolygon) into
 * shapes. All or nothing: the first problem refuses the whole file with a message naming the feature; a file over an
 * input limit throws `LimitExceeded` (the feature's number as its line).
 */
export function parseGeoJsonUpload(text: string, options: GeoJsonOptions): Shape[] {
  let data: any;
  try {
    data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new UploadError(`The file is not valid JSON (${(error as Error).message}). Upload a GeoJSON file.`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new UploadError('The file is not GeoJSON: expected a FeatureCollection.');
  let features: any[];
  if (data.type === 'FeatureCollection') {
    if (!Array.isArray(data.features)) throw new UploadError('The FeatureCollection has no "features" list.');
    features = data.features;
  } else if (data.type === 'Feature') {
    features = [data];
  } else if (data.type === 'Polygon' || data.type === 'MultiPolygon') {
    features = [{ type: 'Feature', properties: {}, geometry: data }];
  } else {
    throw new UploadError(
      `The file is not GeoJSON shapes: its type is ${JSON.stringify(data.type ?? null)}, expected FeatureCollection.`,
    );
  }
  if (features.length === 0) throw new UploadError('The file has no features.');
  if (features.length > options.limits.rows) throw new LimitExceeded('rows');
  if (features.length > MAX_UPLOAD_FEATURES)
    throw new UploadError(
      `The file has ${features.length} features; at most ${MAX_UPLOAD_FEATURES} are accepted at once.`,
    );
  if (data.crs?.properties?.name && !/CRS84|4326/.test(String(data.crs.properties.name))) {
    throw new UploadError(
      `The file uses the coordinate system ${data.crs.properties.name}; upload it in WGS 84 longitude/latitude (EPSG:4326).`,
    );
  }
  const shapes: Shape[] = [];
  let vertices = 0;
  for (const [i, f] of features.entries()) {
    const where = `Feature ${i + 1}`;
    if (!f || typeof f !== 'object' || f.type !== 'Feature')
      throw new UploadError(`${where} is not a GeoJSON Feature.`);
    const properties =
      f.properties && typeof f.properties === 'object' ? (f.properties as Record<string, unknown>) : {};
    const names = Object.keys(properties);
    if (names.length > options.limits.columns) throw new LimitExceeded('columns', i + 1);
    for (const name of names)
      if (valueBytes(properties[name]) > options.limits.cellBytes) throw new LimitExceeded('cellBytes', i + 1);
    let geometry;
    try {
      geometry = parseAreaGeometry(f.geometry, `${where}: the geometry`);
    } catch (error) {
      if (error instanceof GeometryError) throw new UploadError(error.message);
      throw error;
    }
    vertices += vertexCount(geometry);
    if (vertices > MAX_UPLOAD_VERTICES)
      throw new UploadError(
        `The file has more than ${MAX_UPLOAD_VERTICES.toLocaleString('en-US')} points; simplify it first.`,
      );
    const code =
      pick(properties, options.codeProperty, CODE_PROPERTIES) ??
      (f.id !== undefined && f.id !== null ? String(f.id).slice(0, 40) : null);
    const name = pick(properties, options.nameProperty, NAME_PROPERTIES) ?? code;
    if (!name) {
      throw new UploadError(
        `${where} has no name or code: give each feature a "name" or "code" property, or say which property to use.`,
      );
    }
    shapes.push({ geometry_type: options.geometryType, code: code ? code.slice(0, 40) : null, name, geometry });
  }
  return shapes;
}

/** What the worker thread answers for a GeoJSON upload: its shapes, or why the file cannot be used. */
export type GeoJsonResult = { shapes: Shape[] } | { problem: string };

/**
 * A GeoJSON upload read in an upload worker thread (workers/upload-workers.ts): its bytes kept as they arrive, parsed
 * and checked at the end, off the request thread and within the thread's memory cap.
 */
export class GeoJsonReader implements StreamTask<GeoJsonResult> {
  private readonly chunks: Uint8Array[] = [];

  constructor(private readonly options: GeoJsonOptions) {}

  push(chunk: Uint8Array) {
    this.chunks.push(chunk);
  }

  end(): GeoJsonResult {
    const text = Buffer.concat(this.chunks).toString('utf8');
    this.chunks.length = 0;
    try {
      return { shapes: parseGeoJsonUpload(text, this.options) };
    } catch (error) {
      if (error instanceof UploadError) return { problem: error.message };
      throw error;
    }
  }
}
