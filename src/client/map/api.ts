/**
 * The map's calls (docs/map.md), through the app's one HTTP client (credentials, CSRF, error kinds).
 */
import type { FeatureCollection } from 'geojson';
import type { TurfOutlook } from '../../common/access-rules';
import type { MapLayer, MarkerCard, MarkerItem } from '../../common/map-types';
import { http } from '../app/services';

export type Layer = MapLayer;
export type { MarkerItem };

export interface MarkersResponse {
  data: MarkerItem[];
  meta: {
    zoom: number;
    bbox: [number, number, number, number];
    layers: Layer[];
    total: Partial<Record<Layer, number>>;
    in_view: Partial<Record<Layer, number>>;
    counts_by_type: Record<string, number>;
    bounds: [number, number, number, number] | null;
    clusters: number;
    points: number;
    version: number;
  };
}

export type { MarkerCard };

export interface Option {
  id: number | string;
  name: string;
  color?: string | null;
}

export interface FilterOptions {
  site_types: Option[];
  categories: string[];
  statuses: Option[];
  phases: Option[];
  building_types: Option[];
  trades: Option[];
  contractor_types: Option[];
  dropdowns: Array<{ field: string; label: string; options: Option[] }>;
  dates: Array<{ field: string; label: string }>;
  layers: { sites: boolean; contractors: boolean };
}

export interface SearchHit {
  kind: 'site' | 'place' | 'region';
  id?: number;
  label: string;
  detail?: string;
  lat: number;
  lng: number;
  bbox?: [number, number, number, number];
}

export type Measure = 'sites' | 'union_share';

/** The filters as the API reads them (`filter={"type": [...], "bid_date_gte": "..."}`). */
export type MapFilterValues = Record<string, string | string[] | number[]>;

function filterParam(filters: MapFilterValues): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (Array.isArray(value) ? value.length === 0 : value === '' || value === undefined || value === null) continue;
    out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

const bboxParam = (b: [number, number, number, number]) => b.map((v) => Math.round(v * 1e5) / 1e5).join(',');

export async function fetchMarkers(
  bbox: [number, number, number, number],
  zoom: number,
  layers: Layer[],
  filters: MapFilterValues,
  signal?: AbortSignal,
) {
  const response = await http.get<MarkersResponse>('/api/map/markers', {
    query: { bbox: bboxParam(bbox), zoom, layers: layers.join(','), filter: filterParam(filters) },
    signal,
  });
  return response.data;
}

/** A record type with a geo point: a layer of the map (GET /api/map/point-layers). */
export interface PointLayer {
  type: string;
  resource: string;
  name: string;
  field: string;
}

export type PointItem =
  | { kind: 'cluster'; id: number; lat: number; lng: number; count: number; expansion_zoom: number }
  | { kind: 'point'; id: number; lat: number; lng: number; name: string };

export async function fetchPointLayers() {
  return (await http.get<{ data: PointLayer[] }>('/api/map/point-layers')).data.data;
}

/** A record type's points in view, clustered on the server. */
export async function fetchPoints(
  type: string,
  bbox: [number, number, number, number],
  zoom: number,
  signal?: AbortSignal,
) {
  const response = await http.get<{ data: PointItem[] }>('/api/map/points', {
    query: { type, bbox: bboxParam(bbox), zoom },
    signal,
  });
  return response.data.data;
}

export async function fetchCard(kind: 'site' | 'contractor', id: number, signal?: AbortSignal) {
  const response = await http.get<{ data: MarkerCard }>('/api/map/marker-data', { query: { kind, id }, signal });
  return response.data.data;
}

export async function fetchRegionsGeoJson(
  bbox: [number, number, number, number],
  zoom: number,
  geometryTypes: string[],
  measure: Measure | null,
  filters: MapFilterValues,
  signal?: AbortSignal,
) {
  const response = await http.get<FeatureCollection & { meta: { truncated: boolean } }>('/api/map/regions-geojson', {
    query: {
      bbox: bboxParam(bbox),
      zoom,
      geometry_type: geometryTypes.join(','),
      measure: measure ?? undefined,
      filter: filterParam(filters),
    },
    signal,
  });
  return response.data;
}

export async function fetchFilterOptions() {
  const response = await http.get<{ data: FilterOptions }>('/api/map/filters');
  return response.data.data;
}

export async function searchMap(q: string, signal?: AbortSignal) {
  const response = await http.get<{ data: SearchHit[] }>('/api/map/search', { query: { q }, signal });
  return response.data.data;
}

export async function fetchRegionOptions(q: string, signal?: AbortSignal) {
  return fetchOptions('regions', q, signal);
}

/** One page of an options list (GET /api/options/{list}?q=): regions, or the records a relation field points at. */
export async function fetchOptions(list: string, q: string, signal?: AbortSignal) {
  const response = await http.get<{ data: Array<{ id: number; name: string }> }>(
    `/api/options/${encodeURIComponent(list)}`,
    {
      query: { q },
      signal,
    },
  );
  return response.data.data;
}

/**
 * A shape not saved yet (POST /api/regions/preview): how many of the sites the person may read lie inside it, and for
 * the people it is to be assigned to (by name or through a team) what it would do for each.
 */
export async function previewShape(geometry: unknown, assigned: { user_ids?: number[]; team_id?: number | null } = {}) {
  const response = await http.post<{ data: { sites: number; people: TurfOutlook[] } }>('/api/regions/preview', {
    geometry,
    ...assigned,
  });
  return response.data.data;
}

/** Saves a drawn shape as a region assigned to people and a team: a turf (POST /api/regions). */
export async function saveTurf(values: {
  name: string;
  geometry: unknown;
  user_ids: number[];
  team_id: number | null;
}) {
  const response = await http.post<{ data: { id: number; name: string }; message: string }>('/api/regions', {
    ...values,
    geometry_type: 'drawn',
  });
  return response.data;
}

/** The signed-in person's turf (GET /api/turf): its regions, and whether their sites are limited to it. */
export async function fetchTurf() {
  const response = await http.get<{ data: { limited: boolean; regions: Array<{ id: number; name: string }> } }>(
    '/api/turf',
  );
  return response.data.data;
}
