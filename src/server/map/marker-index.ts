import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import Supercluster from 'supercluster';
import type { MarkerItem } from '../../common/map-types.js';
import { splitAtAntimeridian, type Viewport } from './viewport.js';

/**
 * Clustering settings: points closer than 60 screen pixels cluster (extent 256 = a Leaflet tile, so the radius
 * is in screen pixels), and from zoom 17 on every point stands apart.
 */
export const CLUSTER_OPTIONS = { radius: 60, extent: 256, maxZoom: 16, minPoints: 2 } as const;

/** One layer's points for one filter set and permission scope, clustered in memory (supercluster). */
export interface MarkerIndex {
  layer: 'sites' | 'contractors';
  key: string;
  generation: number;
  builtAt: number;
  buildMs: number;
  /** Parts of buildMs: the query, reading its answer, clustering. */
  timings: { queryMs: number; parseMs: number; clusterMs: number };
  /** Per point (the supercluster point index): record id, name, type, and (sites) status id (0 = none). */
  ids: Int32Array;
  names: string[];
  types: string[];
  statusIds: Int32Array;
  total: number;
  countsByType: Record<string, number>;
  /** [west, south, east, north] of every point, or null when there are none (for a map's first view). */
  bounds: [number, number, number, number] | null;
  cluster: Supercluster<any, any>;
}

const UNIT = '\u001f';

/**
 * Loads the lean columns of every matching row as a few aggregated text values (one row crosses the wire,
 * several times faster than 100,000 rows on PGlite) and indexes them. A column the person's role hides (`hidden`:
 * name, type, status) is read as blank, so its value never reaches their map.
 */
export async function buildMarkerIndex(
  layer: 'sites' | 'contractors',
  base: SelectQueryBuilder<any, any, any>,
  conditions: RawBuilder<boolean>[],
  key: string,
  generation: number,
  hidden: ReadonlySet<string> = new Set(),
): Promise<MarkerIndex> {
  const started = performance.now();
  let query = base.where('t.latitude', 'is not', null).where('t.longitude', 'is not', null);
  for (const condition of conditions) query = query.where(condition);
  const status =
    layer === 'sites' && !hidden.has('site_status_id') ? sql`coalesce(t.site_status_id, 0)::text` : sql`'0'`;
  const typeColumn = hidden.has('type') ? sql`''` : sql`t.type`;
  const nameColumn = hidden.has('name') ? sql`''` : sql`replace(coalesce(t.name, ''), ${UNIT}, ' ')`;
  // One aggregate per column (every aggregate sees the rows in the same order): five long strings to split.
  const row = await query
    .select([
      sql<string | null>`string_agg(t.id::text, ',')`.as('ids'),
      sql<string | null>`string_agg(t.latitude::text, ',')`.as('lats'),
      sql<string | null>`string_agg(t.longitude::text, ',')`.as('lngs'),
      sql<string | null>`string_agg(${status}, ',')`.as('statuses'),
      sql<string | null>`string_agg(${typeColumn}, ${UNIT})`.as('types'),
      // A name is people's text: the separator is taken out of it so one name can never shift the others.
      sql<string | null>`string_agg(${nameColumn}, ${UNIT})`.as('names'),
    ])
    .executeTakeFirst();
  const queried = performance.now();
  const packed = (row ?? {}) as Record<string, string | null>;
  const idText = packed.ids ? packed.ids.split(',') : [];
  const latText = packed.lats?.split(',') ?? [];
  const lngText = packed.lngs?.split(',') ?? [];
  const statusText = packed.statuses?.split(',') ?? [];
  const typeText = packed.types?.split(UNIT) ?? [];
  const nameText = packed.names?.split(UNIT) ?? [];
  const n = idText.length;
  const ids = new Int32Array(n);
  const statusIds = new Int32Array(n);
  const types = new Array<string>(n);
  const names = new Array<string>(n);
  const countsByType: Record<string, number> = {};
  const points = new Array(n);
  let kept = 0;
  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  for (let i = 0; i < n; i++) {
    const lat = +latText[i];
    const lng = +lngText[i];
    if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) continue; // bad coordinates never reach a map
    if (lat < south) south = lat;
    if (lat > north) north = lat;
    if (lng < west) west = lng;
    if (lng > east) east = lng;
    ids[kept] = +idText[i];
    statusIds[kept] = +statusText[i];
    const type = typeText[i];
    types[kept] = type;
    names[kept] = nameText[i] ?? '';
    if (type) countsByType[type] = (countsByType[type] ?? 0) + 1;
    // All supercluster reads of an input point: its coordinates, and properties handed back in answers.
    points[kept] = { properties: kept, geometry: { coordinates: [lng, lat] } };
    kept++;
  }
  points.length = kept;
  const parsed = performance.now();
  const cluster = new Supercluster<any, any>({ ...CLUSTER_OPTIONS });
  cluster.load(points);
  const clustered = performance.now();
  return {
    layer,
    key,
    generation,
    builtAt: Date.now(),
    buildMs: clustered - started,
    timings: { queryMs: queried - started, parseMs: parsed - queried, clusterMs: clustered - parsed },
    ids: ids.subarray(0, kept),
    names: names.slice(0, kept),
    types: types.slice(0, kept),
    statusIds: statusIds.subarray(0, kept),
    total: kept,
    countsByType,
    bounds: kept ? [west, south, east, north] : null,
    cluster,
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Clusters and points of one index inside the viewport (both halves when it crosses the antimeridian). */
export function queryMarkerIndex(index: MarkerIndex, viewport: Viewport): MarkerItem[] {
  const out: MarkerItem[] = [];
  for (const box of splitAtAntimeridian(viewport.bbox)) {
    for (const feature of index.cluster.getClusters(box, viewport.zoom)) {
      const [lng, lat] = feature.geometry.coordinates;
      const props = feature.properties as any;
      if (typeof props === 'object' && props?.cluster) {
        out.push({
          kind: 'cluster',
          layer: index.layer,
          id: props.cluster_id,
          lat: round(lat),
          lng: round(lng),
          count: props.point_count,
          expansion_zoom: Math.min(
            index.cluster.getClusterExpansionZoom(props.cluster_id),
            CLUSTER_OPTIONS.maxZoom + 1,
          ),
        });
      } else {
        const i = props as number;
        if (index.layer === 'sites') {
          out.push({
            kind: 'site',
            id: index.ids[i],
            name: index.names[i],
            lat: round(lat),
            lng: round(lng),
            type: index.types[i],
            status_id: index.statusIds[i] || null,
          });
        } else {
          out.push({
            kind: 'contractor',
            id: index.ids[i],
            name: index.names[i],
            lat: round(lat),
            lng: round(lng),
            type: index.types[i],
          });
        }
      }
    }
  }
  return out;
}
