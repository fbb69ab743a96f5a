/**
 * The map layer of a record type with a geo-point field (docs/map.md "Record layers"): its records the person may
 * read (the access policy's rows, as every list) that have a point, clustered for the view (supercluster, as the
 * site markers). Built for each request: a type's points are not cached as the sites' are.
 */
import { type RawBuilder, sql } from 'kysely';
import Supercluster from 'supercluster';
import type { Sql } from '../../common/field-types/define.js';
import { valueExpression } from '../../common/field-types/sql.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import { labelExpression } from '../records/representation.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { schemaStore } from '../schemas/schema-store.js';
import { CLUSTER_OPTIONS } from './marker-index.js';
import { splitAtAntimeridian, type Viewport } from './viewport.js';

/** The most points one layer draws: beyond, the view must be narrowed by zooming in (`meta.capped`). */
const MOST_POINTS = 50_000;

export interface PointLayer {
  /** The record type (`inspection`). */
  type: string;
  /** Its list's path (`inspections`): the client links each point to `/{resource}/{id}/show`. */
  resource: string;
  name: string;
  /** The geo-point field drawn (the type's first). */
  field: string;
}

export type PointItem =
  | { kind: 'cluster'; id: number; lat: number; lng: number; count: number; expansion_zoom: number }
  | { kind: 'point'; id: number; lat: number; lng: number; name: string };

const SQL = sql as unknown as Sql;
const round = (v: number) => Math.round(v * 1e6) / 1e6;

function geoField(fields: Record<string, FieldSpec>): [string, FieldSpec] | undefined {
  return Object.entries(fields).find(([, spec]) => spec.type === 'geo-point');
}

/** The record types the person may read that have a geo-point field: the layers the map offers them. */
export async function pointLayers(ctx: AppContext, user: AuthUser): Promise<PointLayer[]> {
  const layers: PointLayer[] = [];
  const schemas = (await schemaStore(ctx.db).snapshot()).byType;
  for (const def of ctx.resources.all()) {
    if (!def.customFields) continue;
    const found = geoField(await ctx.records.fields(def));
    if (!found) continue;
    try {
      ctx.records.authorize(user, def, 'read');
    } catch {
      continue;
    }
    layers.push({
      type: def.type,
      resource: def.name,
      name: schemas.get(def.type)?.name_plural ?? def.singular,
      field: found[0],
    });
  }
  return layers;
}

/** The clusters and points of a type's layer in the view, as the person may read them. */
export async function recordPoints(ctx: AppContext, user: AuthUser, type: string, viewport: Viewport) {
  const def: ResourceDefinition | undefined = ctx.resources.byType(type);
  const found = def?.customFields ? geoField(await ctx.records.fields(def)) : undefined;
  if (!def || !found) throw notFound(`No record type "${type}" has a geo point to draw.`);
  ctx.records.authorize(user, def, 'read');
  const [field, spec] = found;
  const point = valueExpression(SQL, field, spec, 't') as unknown as RawBuilder<unknown>;
  const label = labelExpression(def) ?? sql<string>`''`;
  const rows = await (await ctx.records.visibleRows(ctx.db, def, user))
    .select([
      't.id',
      label.as('name'),
      sql<number>`(${point} ->> 'lat')::float8`.as('lat'),
      sql<number>`(${point} ->> 'lng')::float8`.as('lng'),
    ])
    .where(sql<boolean>`(${point} ->> 'lat') is not null`)
    .orderBy('t.id')
    .limit(MOST_POINTS + 1)
    .execute();
  const capped = rows.length > MOST_POINTS;
  const kept = rows.slice(0, MOST_POINTS);
  const index = new Supercluster<{ i: number }, Record<string, unknown>>({ ...CLUSTER_OPTIONS });
  index.load(
    kept.map((row, i) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [Number(row.lng), Number(row.lat)] },
      properties: { i },
    })),
  );
  const data: PointItem[] = [];
  for (const box of splitAtAntimeridian(viewport.bbox))
    for (const feature of index.getClusters(box, viewport.zoom)) {
      const [lng, lat] = feature.geometry.coordinates;
      const props = feature.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; i?: number };
      if (props.cluster && props.cluster_id !== undefined)
        data.push({
          kind: 'cluster',
          id: props.cluster_id,
          lat: round(lat),
          lng: round(lng),
          count: props.point_count ?? 0,
          expansion_zoom: Math.min(index.getClusterExpansionZoom(props.cluster_id), CLUSTER_OPTIONS.maxZoom + 1),
        });
      else {
        const row = kept[props.i ?? 0];
        data.push({
          kind: 'point',
          id: Number(row.id),
          lat: round(lat),
          lng: round(lng),
          name: String(row.name ?? ''),
        });
      }
    }
  return { data, meta: { type, field, total: kept.length, capped } };
}
