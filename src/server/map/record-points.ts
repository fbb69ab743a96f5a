/**
 * The map layer of a record type with a geo-point field (docs/map.md "Record layers"), and the map layout of its list
 * (docs/views.md "Map"): the records its list finds for the person (the access policy's rows with the list's
 * `filter[...]`, `filters=`, `view=` and `search`, through the one filter compiler) that have a point, clustered for
 * the view (supercluster, as the site markers). Built for each request: a type's points are not cached as the sites' are.
 */
import { type RawBuilder, sql } from 'kysely';
import Supercluster from 'supercluster';
import type { Sql } from '../../common/field-types/define.js';
import { valueExpression } from '../../common/field-types/sql.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound, ValidationError } from '../http/errors.js';
import { shownLabelExpression } from '../records/representation.js';
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
  /** The field drawn: the type's first geo point, else its first addresses field. */
  field: string;
}

export type PointItem =
  | { kind: 'cluster'; id: number; lat: number; lng: number; count: number; expansion_zoom: number }
  | { kind: 'point'; id: number; lat: number; lng: number; name: string };

const SQL = sql as unknown as Sql;
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** The field types a point is read from: a geo point, or a list of addresses (its first address's coordinates). */
const POINT_TYPES = new Set(['geo-point', 'addresses']);

/** The type's first geo point, else its first addresses field. */
function geoField(fields: Record<string, FieldSpec>): [string, FieldSpec] | undefined {
  const entries = Object.entries(fields);
  return entries.find(([, spec]) => spec.type === 'geo-point') ?? entries.find(([, spec]) => spec.type === 'addresses');
}

/** The latitude and longitude a field's value holds, as SQL on `t` (null where it holds none). */
function coordinates(field: string, spec: FieldSpec) {
  const value = valueExpression(SQL, field, spec, 't') as unknown as RawBuilder<unknown>;
  const at = spec.type === 'addresses' ? sql`${value} -> 0` : value;
  const [lat, lng] = spec.type === 'addresses' ? ['latitude', 'longitude'] : ['lat', 'lng'];
  return {
    lat: sql<number>`(${at} ->> ${sql.lit(lat)})::float8`,
    lng: sql<number>`(${at} ->> ${sql.lit(lng)})::float8`,
  };
}

/** The record types the person may read that have a geo-point or addresses field they may see: the map's layers for them. */
export async function pointLayers(ctx: AppContext, user: AuthUser): Promise<PointLayer[]> {
  const layers: PointLayer[] = [];
  const schemas = (await schemaStore(ctx.db).snapshot()).byType;
  for (const def of ctx.resources.all()) {
    if (!def.customFields) continue;
    try {
      ctx.records.authorize(user, def, 'read');
    } catch {
      continue;
    }
    // Only a geo point the person's role shows them is drawn.
    const found = geoField(await ctx.records.visibleFields(user, def));
    if (!found) continue;
    layers.push({
      type: def.type,
      resource: def.name,
      name: schemas.get(def.type)?.name_plural ?? def.singular,
      field: found[0],
    });
  }
  return layers;
}

/** West, south, east, north of all the points found (not only those in view): where a map of them first looks. */
function boundsOf(rows: ReadonlyArray<{ lat: unknown; lng: unknown }>): [number, number, number, number] | null {
  if (!rows.length) return null;
  const lats = rows.map((row) => Number(row.lat));
  const lngs = rows.map((row) => Number(row.lng));
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)].map(round) as [
    number,
    number,
    number,
    number,
  ];
}

/** What the points request holds beside the list query: the viewport, the type and the field drawn. */
const NOT_LIST_QUERY = new Set(['bbox', 'west', 'south', 'east', 'north', 'zoom', 'layers', 'type', 'by']);

/**
 * The clusters and points of a type's layer in the view, as the person may read them: by the geo-point or addresses
 * field `by` (else the first they may see), over the records the list query `listQuery` finds (422 naming a field or filter it refuses).
 */
export async function recordPoints(
  ctx: AppContext,
  user: AuthUser,
  type: string,
  viewport: Viewport,
  listQuery: Record<string, unknown> = {},
  by?: string,
) {
  const def: ResourceDefinition | undefined = ctx.resources.byType(type);
  const found = def?.customFields ? geoField(await ctx.records.fields(def)) : undefined;
  if (!def || !found) throw notFound(`No record type "${type}" has a geo point to draw.`);
  const query = Object.fromEntries(Object.entries(listQuery).filter(([key]) => !NOT_LIST_QUERY.has(key)));
  const { fields, base } = await ctx.records.matchingRows(user, def, query);
  // The fields the person may see: a geo point their role hides is not drawn for them.
  const [field, spec] = by ? [by, fields[by]] : (geoField(fields) ?? [found[0], undefined]);
  if (!spec || !POINT_TYPES.has(spec.type ?? ''))
    throw new ValidationError({
      by: [`"${field}" is not a geo point or addresses field of this record type that you may see.`],
    });
  const { lat, lng } = coordinates(field, spec);
  // A name made of a field the role hides is not drawn as the point's label.
  const label = shownLabelExpression(def, (await ctx.records.access.mask(user, def)).hidden) ?? sql<string>`''`;
  const rows = await base
    .select(['t.id', label.as('name'), lat.as('lat'), lng.as('lng')])
    .where(sql<boolean>`${lat} is not null and ${lng} is not null`)
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
  return { data, meta: { type, field, total: kept.length, capped, bounds: boundsOf(kept) } };
}
