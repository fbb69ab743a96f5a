import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { BulkRow } from '../records/batch-writer.js';
import type { ResourceDefinition } from '../records/resource.js';
import { assignRegionSites } from './assign.js';
import { type AreaGeometry, bboxOf } from './geometry.js';
import { regionsResource } from './regions-resource.js';

export interface Shape {
  geometry_type: 'state' | 'county' | 'postal-code';
  code: string | null;
  name: string;
  geometry: AreaGeometry;
  color?: string | null;
}

export interface StoreResult {
  created: number;
  updated: number;
  /** Ids of every region written, in the order of the shapes. */
  ids: number[];
  /** (site, region) pairs worked out for them. */
  assigned: number;
}

export function regionsDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.get('regions') ?? regionsResource;
}

/**
 * Writes many shapes at once (Census loads, GeoJSON uploads) through the data service's bulk write, in one
 * transaction: a shape whose geometry type and code match a region that is not deleted replaces that region's
 * shape (its name and colour stay); others become new regions. Each region gets an `imported` revision (without
 * the shape itself, which would double the storage), all of one batch (the activity feed shows the load as one
 * entry), the sites inside are placed, and one `imported` event tells
 * open screens to reload. The person needs region:create and/or region:update unless `system` (a load on demand).
 */
export async function storeShapes(
  ctx: AppContext,
  user: AuthUser | null,
  shapes: Shape[],
  options: { system?: boolean } = {},
): Promise<StoreResult> {
  const def = regionsDefinition(ctx);
  const existing = await existingRegions(ctx, shapes);
  const rows: BulkRow[] = shapes.map((shape) => {
    const [minLng, minLat, maxLng, maxLat] = bboxOf(shape.geometry);
    const box = { min_lat: minLat, min_lng: minLng, max_lat: maxLat, max_lng: maxLng };
    const id = shape.code ? existing.get(`${shape.geometry_type}|${shape.code}`) : undefined;
    if (id !== undefined)
      return {
        id,
        values: { geometry: shape.geometry, ...box },
        changes: { geometry: ['(previous shape)', '(new shape)'] },
      };
    return {
      values: {
        name: shape.name,
        geometry_type: shape.geometry_type,
        code: shape.code,
        color: shape.color ?? null,
        geometry: shape.geometry,
        ...box,
      },
      changes: { name: [null, shape.name], geometry_type: [null, shape.geometry_type], code: [null, shape.code] },
    };
  });
  const result = await ctx.records.writeBulk(user, def, rows, {
    system: options.system,
    within: (trx, ids) => assignRegionSites(trx, [...new Set(ids)]),
  });
  return { created: result.created, updated: result.updated, ids: result.ids, assigned: result.within ?? 0 };
}

/** Regions (not deleted) of the shapes' geometry types and codes, by `type|code`: the oldest of any duplicates. */
async function existingRegions(ctx: AppContext, shapes: Shape[]): Promise<Map<string, number>> {
  const codes = [...new Set(shapes.map((s) => s.code).filter((c): c is string => Boolean(c)))];
  const types = [...new Set(shapes.map((s) => s.geometry_type))];
  const existing = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 5_000) {
    const rows = await ctx.db
      .selectFrom('regions')
      .select(['id', 'geometry_type', 'code'])
      .where('deleted_at', 'is', null)
      .where('geometry_type', 'in', types)
      .where('code', 'in', codes.slice(i, i + 5_000))
      .orderBy('id')
      .execute();
    for (const row of rows)
      if (!existing.has(`${row.geometry_type}|${row.code}`)) existing.set(`${row.geometry_type}|${row.code}`, row.id);
  }
  return existing;
}
