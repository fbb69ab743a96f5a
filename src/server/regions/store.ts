import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { ResourceDefinition } from '../records/resource.js';
import { assignRegionSites } from './assign.js';
import { bboxOf, type AreaGeometry } from './geometry.js';
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

const INSERT_CHUNK = 200;

export function regionsDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.get('regions') ?? regionsResource;
}

/**
 * Writes many shapes at once (Census loads, GeoJSON uploads) in one transaction: a shape whose geometry type
 * and code match a region that is not deleted replaces that region's shape (its name and colour stay);
 * others become new regions. Each region gets an `imported` revision (without the shape itself, which would
 * double the storage), all of one batch (`batch_id`: the activity feed shows the load as one entry), the sites
 * inside are placed, and one ModelSaved event for `region` tells open screens to reload. The person needs
 * region:create and region:update unless `system` (a load on demand).
 */
export async function storeShapes(ctx: AppContext, user: AuthUser | null, shapes: Shape[], options: { system?: boolean } = {}): Promise<StoreResult> {
  const def = regionsDefinition(ctx);
  if (!options.system) {
    ctx.records.authorize(user, def, 'create');
    ctx.records.authorize(user, def, 'update');
  }
  const revisionUser = options.system ? null : user;
  const batchId = `regions:${randomUUID()}`;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const codes = [...new Set(shapes.map((s) => s.code).filter((c): c is string => Boolean(c)))];
    const types = [...new Set(shapes.map((s) => s.geometry_type))];
    const existing = new Map<string, number>();
    for (let i = 0; i < codes.length; i += 5_000) {
      const rows = await trx
        .selectFrom('regions')
        .select(['id', 'geometry_type', 'code'])
        .where('deleted_at', 'is', null)
        .where('geometry_type', 'in', types)
        .where('code', 'in', codes.slice(i, i + 5_000))
        .orderBy('id')
        .execute();
      for (const row of rows) if (!existing.has(`${row.geometry_type}|${row.code}`)) existing.set(`${row.geometry_type}|${row.code}`, row.id);
    }
    const now = new Date();
    const ids: number[] = new Array(shapes.length);
    const inserts: Array<{ index: number; row: Record<string, unknown> }> = [];
    const revisions: Array<Record<string, unknown>> = [];
    const revision = (id: number, changes: Record<string, unknown>) => ({
      revisionable_type: def.type,
      revisionable_id: id,
      action: 'imported',
      user_id: revisionUser?.impersonator?.id ?? revisionUser?.id ?? null,
      changes: JSON.stringify(changes),
      import_id: null,
      batch_id: batchId,
    });
    let updated = 0;
    for (const [index, shape] of shapes.entries()) {
      const [minLng, minLat, maxLng, maxLat] = bboxOf(shape.geometry);
      const box = { min_lat: minLat, min_lng: minLng, max_lat: maxLat, max_lng: maxLng };
      const id = shape.code ? existing.get(`${shape.geometry_type}|${shape.code}`) : undefined;
      if (id !== undefined) {
        await trx.updateTable('regions').set({ geometry: JSON.stringify(shape.geometry), ...box, updated_at: now }).where('id', '=', id).execute();
        ids[index] = id;
        updated++;
        revisions.push(revision(id, { geometry: ['(previous shape)', '(new shape)'] }));
      } else {
        inserts.push({
          index,
          row: { name: shape.name, geometry_type: shape.geometry_type, code: shape.code, color: shape.color ?? null, geometry: JSON.stringify(shape.geometry), ...box, created_at: now, updated_at: now },
        });
      }
    }
    for (let i = 0; i < inserts.length; i += INSERT_CHUNK) {
      const chunk = inserts.slice(i, i + INSERT_CHUNK);
      const rows = await trx.insertInto('regions').values(chunk.map((c) => c.row)).returning('id').execute();
      rows.forEach((row, k) => (ids[chunk[k].index] = row.id));
    }
    // Revisions in bulk: the same rows writeRevision makes, with the batch, many per statement.
    for (const c of inserts) revisions.push(revision(ids[c.index], { name: [null, c.row.name], geometry_type: [null, c.row.geometry_type], code: [null, c.row.code] }));
    for (let i = 0; i < revisions.length; i += 1_000) await trx.insertInto('revisions').values(revisions.slice(i, i + 1_000)).execute();
    const assigned = await assignRegionSites(trx, [...new Set(ids)]);
    return { created: inserts.length, updated, ids, assigned };
  });
  if (result.ids.length) {
    const last = await ctx.db
      .selectFrom('regions')
      .select(['id', 'name', 'geometry_type', 'code', 'color', 'min_lat', 'min_lng', 'max_lat', 'max_lng', 'created_at', 'updated_at', 'deleted_at'])
      .where('id', '=', result.ids[result.ids.length - 1])
      .executeTakeFirst();
    if (last) await ctx.records.announce(def, { ...last, imported: result.ids.length }, ['ModelSaved']);
  }
  return result;
}

/**
 * Codes of the state or county regions that already have a real shape. A region whose shape is a bare
 * rectangle (drawn by hand as a placeholder) does not count: loading on demand gives it the Census shape.
 */
export async function loadedUsCodes(ctx: AppContext, geometryType: 'state' | 'county'): Promise<Set<string>> {
  const rows = await ctx.db
    .selectFrom('regions')
    .select('code')
    .where('deleted_at', 'is', null)
    .where('geometry_type', '=', geometryType)
    .where('code', 'is not', null)
    .where(sql<boolean>`geometry is not null`)
    .where(sql<boolean>`(geometry->>'type' = 'MultiPolygon' or jsonb_array_length(geometry->'coordinates'->0) > 5)`)
    .execute();
  return new Set(rows.map((r) => String(r.code)));
}
