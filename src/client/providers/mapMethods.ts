/** The data provider's map methods (docs/map.md): markers, points, regions, cards, filters, search and turf. */
import type { FeatureCollection } from 'geojson';
import type { TurfOutlook } from '../../common/access-rules';
import type {
  MapFilterOptions,
  MapFilterValues,
  MapLayer,
  MapMeasure,
  MapSearchHit,
  MarkerCard,
  MarkersResponse,
  PointLayer,
  PointsResponse,
} from '../../common/map-types';
import type { HttpClient } from '../http/client';
import type { Query } from '../http/query';

type Box = [number, number, number, number];

/** Empty filters are left out, so the query says only what narrows the map. */
function filterParam(filters: MapFilterValues): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (Array.isArray(value) ? value.length === 0 : value === '' || value === undefined || value === null) continue;
    out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

const bboxParam = (box: Box) => box.map((v) => Math.round(v * 1e5) / 1e5).join(',');

export function mapMethods(http: HttpClient) {
  return {
    async mapMarkers(bbox: Box, zoom: number, layers: MapLayer[], filters: MapFilterValues, signal?: AbortSignal) {
      const response = await http.get<MarkersResponse>('/api/map/markers', {
        query: { bbox: bboxParam(bbox), zoom, layers: layers.join(','), filter: filterParam(filters) },
        signal,
      });
      return response.data;
    },

    async mapPointLayers() {
      return (await http.get<{ data: PointLayer[] }>('/api/map/point-layers')).data.data;
    },

    /**
     * A record type's points in view, clustered on the server; with `list`, of the records its list finds (the
     * list's query: `filter`, `filters`, `view`, `search`, as dataProvider.ts listQuery makes it) by the field `by`.
     */
    async mapPoints(type: string, bbox: Box, zoom: number, signal?: AbortSignal, list?: { query: Query; by: string }) {
      const response = await http.get<PointsResponse>('/api/map/points', {
        query: { ...list?.query, type, bbox: bboxParam(bbox), zoom, ...(list ? { by: list.by } : {}) },
        signal,
      });
      return response.data;
    },

    async mapCard(kind: 'site' | 'contractor', id: number, signal?: AbortSignal) {
      const response = await http.get<{ data: MarkerCard }>('/api/map/marker-data', { query: { kind, id }, signal });
      return response.data.data;
    },

    async mapRegions(
      bbox: Box,
      zoom: number,
      geometryTypes: string[],
      measure: MapMeasure | null,
      filters: MapFilterValues,
      signal?: AbortSignal,
    ) {
      const response = await http.get<FeatureCollection & { meta: { truncated: boolean } }>(
        '/api/map/regions-geojson',
        {
          query: {
            bbox: bboxParam(bbox),
            zoom,
            geometry_type: geometryTypes.join(','),
            measure: measure ?? undefined,
            filter: filterParam(filters),
          },
          signal,
        },
      );
      return response.data;
    },

    async mapFilterOptions() {
      return (await http.get<{ data: MapFilterOptions }>('/api/map/filters')).data.data;
    },

    async mapSearch(q: string, signal?: AbortSignal) {
      return (await http.get<{ data: MapSearchHit[] }>('/api/map/search', { query: { q }, signal })).data.data;
    },

    /**
     * A shape not saved yet (POST /api/regions/preview): how many of the sites the person may read lie inside it,
     * and for the people it is to be assigned to (by name or through a team) what it would do for each.
     */
    async previewShape(geometry: unknown, assigned: { user_ids?: number[]; team_id?: number | null } = {}) {
      const response = await http.post<{ data: { sites: number; people: TurfOutlook[] } }>('/api/regions/preview', {
        geometry,
        ...assigned,
      });
      return response.data.data;
    },

    /** Saves a drawn shape as a region assigned to people and a team: a turf (POST /api/regions). */
    async saveTurf(values: { name: string; geometry: unknown; user_ids: number[]; team_id: number | null }) {
      const response = await http.post<{ data: { id: number; name: string }; message: string }>('/api/regions', {
        ...values,
        geometry_type: 'drawn',
      });
      return response.data;
    },

    /** Regions from a file (POST /api/regions/upload, multipart); answers the server's message. */
    async uploadRegions(geometryType: string, file: File) {
      const form = new FormData();
      form.append('geometry_type', geometryType);
      form.append('file', file, file.name);
      return (await http.post<{ message: string }>('/api/regions/upload', form)).data.message;
    },
  };
}

export type MapMethods = ReturnType<typeof mapMethods>;
