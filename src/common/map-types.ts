/** The map's response shapes (docs/map.md), shared by the server that builds them and the client that draws them. */

export type MapLayer = 'sites' | 'contractors';

export type MarkerItem =
  | { kind: 'cluster'; layer: MapLayer; id: number; lat: number; lng: number; count: number; expansion_zoom: number }
  | { kind: 'site'; id: number; name: string; lat: number; lng: number; type: string; status_id: number | null }
  | { kind: 'contractor'; id: number; name: string; lat: number; lng: number; type: string };

export interface MarkerCard {
  kind: 'site' | 'contractor';
  id: number;
  name: string;
  address: string | null;
  lat: number | null;
  lng: number | null;
  type: string;
  status: { id: number; name: string; color: string | null } | null;
  phase: { id: number; name: string } | null;
  contractors: Array<{ id: number; name: string; type: string; role: 'general' | 'trade' }>;
  sites_count?: number;
  /** The record's fields made in the schema editor, by slug (stored values; the client shows them by the field display). */
  custom: Record<string, unknown>;
  last_activity: { at: string; kind: 'note' | 'task' | 'change'; summary: string } | null;
  actions: Array<{ name: 'open' | 'panel'; label: string; href: string; resource: string; id: number }>;
}

export interface MarkersResponse {
  data: MarkerItem[];
  meta: {
    zoom: number;
    bbox: [number, number, number, number];
    layers: MapLayer[];
    total: Partial<Record<MapLayer, number>>;
    in_view: Partial<Record<MapLayer, number>>;
    counts_by_type: Record<string, number>;
    bounds: [number, number, number, number] | null;
    clusters: number;
    points: number;
    version: number;
  };
}

export interface MapOption {
  id: number | string;
  name: string;
  color?: string | null;
}

/** What the map's filter drawer offers (GET /api/map/filters). */
export interface MapFilterOptions {
  site_types: MapOption[];
  categories: string[];
  statuses: MapOption[];
  phases: MapOption[];
  building_types: MapOption[];
  trades: MapOption[];
  contractor_types: MapOption[];
  dropdowns: Array<{ field: string; label: string; options: MapOption[] }>;
  dates: Array<{ field: string; label: string }>;
  layers: { sites: boolean; contractors: boolean };
}

export interface MapSearchHit {
  kind: 'site' | 'place' | 'region';
  id?: number;
  label: string;
  detail?: string;
  lat: number;
  lng: number;
  bbox?: [number, number, number, number];
}

/** What the regions are shaded by. */
export type MapMeasure = 'sites' | 'union_share';

/** The filters as the API reads them (`filter={"type": [...], "bid_date_gte": "..."}`). */
export type MapFilterValues = Record<string, string | string[] | number[]>;

/** A record type with a geo point: a layer of the map (GET /api/map/point-layers). */
export interface PointLayer {
  type: string;
  resource: string;
  name: string;
  field: string;
}

export interface PointsResponse {
  data: PointItem[];
  meta: {
    type: string;
    field: string;
    total: number;
    capped: boolean;
    /** West, south, east, north of every point found, in view or not. */
    bounds: [number, number, number, number] | null;
  };
}

export type PointItem =
  | { kind: 'cluster'; id: number; lat: number; lng: number; count: number; expansion_zoom: number }
  | { kind: 'point'; id: number; lat: number; lng: number; name: string };
