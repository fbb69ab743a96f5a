import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { type Shape, type StoreResult, storeShapes } from './store.js';
import { type UsLevel, usShapes } from './us-atlas.js';

let loading: Promise<unknown> = Promise.resolve();

/** Loads Census shapes (all of the level, or of some states' counties); one load at a time in this process. */
export function loadUsShapes(
  ctx: AppContext,
  user: AuthUser | null,
  level: UsLevel,
  states: string[] | undefined,
  options: { system?: boolean; onlyMissing?: boolean } = {},
): Promise<StoreResult> {
  const run = loading.catch(() => undefined).then(() => loadUsShapesNow(ctx, user, level, states, options));
  loading = run;
  return run;
}

async function loadUsShapesNow(
  ctx: AppContext,
  user: AuthUser | null,
  level: UsLevel,
  states: string[] | undefined,
  options: { system?: boolean; onlyMissing?: boolean },
) {
  let shapes: Shape[] = usShapes(level, states);
  if (options.onlyMissing) {
    const loaded = await loadedUsCodes(ctx, level === 'states' ? 'state' : 'county');
    shapes = shapes.filter((s) => !loaded.has(s.code!));
  }
  if (shapes.length === 0) return { created: 0, updated: 0, ids: [], assigned: 0 };
  return storeShapes(ctx, user, shapes, { system: options.system });
}

/**
 * Codes of the state or county regions that already have a real shape. A region whose shape is a bare
 * rectangle (the demo organisation seeds its regions as boxes) does not count: loading on demand gives it the
 * Census shape.
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
