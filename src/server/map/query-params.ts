import { ValidationError } from '../http/errors.js';
import { GEOMETRY_TYPES } from '../regions/regions-resource.js';
import { MEASURES, type Measure } from './region-colors.js';

export type Layer = 'sites' | 'contractors';

/** A list parameter sent as `a,b`, `x[]=a&x[]=b` or repeated; blanks dropped. */
export const truthyList = (value: unknown): string[] =>
  value === undefined || value === null || value === ''
    ? []
    : (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

export function parseLayers(value: unknown): Layer[] {
  const list = truthyList(value);
  if (list.length === 0) return ['sites'];
  const bad = list.filter((l) => l !== 'sites' && l !== 'contractors');
  if (bad.length) throw new ValidationError({ layers: ['The layers must be sites and/or contractors.'] });
  return [...new Set(list)] as Layer[];
}

export function parseMeasure(value: unknown): Measure | null {
  if (value === undefined || value === '' || value === null) return null;
  if (!(MEASURES as readonly string[]).includes(String(value)))
    throw new ValidationError({ measure: [`The measure must be one of: ${MEASURES.join(', ')}.`] });
  return value as Measure;
}

export function parseGeometryTypes(value: unknown): string[] {
  const list = truthyList(value);
  const bad = list.filter((t) => !(GEOMETRY_TYPES as readonly string[]).includes(t));
  if (bad.length)
    throw new ValidationError({ geometry_type: [`The geometry type must be one of: ${GEOMETRY_TYPES.join(', ')}.`] });
  return list;
}

/** A search text as the map takes it: trimmed, at most 100 characters. */
export const searchText = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 100) : '');

export const isRowId = (id: number) => Number.isInteger(id) && id >= 1 && id <= 2_147_483_647;
