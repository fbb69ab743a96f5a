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
