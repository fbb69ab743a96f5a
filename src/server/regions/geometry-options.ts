import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { HttpError } from '../http/errors.js';
import { escapeLike } from '../records/list-query.js';
import { loadedUsCodes, loadUsShapes } from './census.js';
import { regionsDefinition } from './store.js';
import { type UsLevel, usShapes } from './us-atlas.js';

export interface GeometryQuery {
  type: 'state' | 'county' | 'postal-code' | null;
  /** 2-digit FIPS code: counties of this state. */
  state: string | null;
  q: string;
}

/**
 * Region shapes to pick from (`{id, name, geometry_type, code}`, at most 500) among those the person may read (the
 * caller checked region:read; the rows go through the data service's row rules). The
 * first time states or counties are asked for and none of those wanted are in the database, the Census shapes are
 * loaded (all states; the counties of `state`, or all counties).
 */
export async function geometryOptions(
  ctx: AppContext,
  user: AuthUser,
  query: GeometryQuery,
  log: { error: (obj: unknown, msg?: string) => void },
) {
  const def = regionsDefinition(ctx);
  const { type, state, q } = query;
  if (type === 'state' || type === 'county') {
    const level: UsLevel = type === 'state' ? 'states' : 'counties';
    const states = type === 'county' && state ? [state] : undefined;
    const loaded = await loadedUsCodes(ctx, type);
    if (!usShapes(level, states).some((s) => loaded.has(s.code))) {
      try {
        await loadUsShapes(ctx, null, level, states, { system: true, onlyMissing: true });
      } catch (error) {
        log.error({ err: error }, 'Loading Census shapes on demand failed');
        throw new HttpError(503, 'The state and county shapes could not be loaded. Try again in a moment.');
      }
    }
  }
  let rows = (await ctx.records.visibleRows(ctx.db, def, user))
    .select(['t.id', 't.name', 't.geometry_type', 't.code'])
    .where(sql<boolean>`t.geometry is not null`);
  if (type) rows = rows.where('t.geometry_type', '=', type);
  if (state) rows = rows.where((eb) => eb.or([eb('t.code', '=', state), eb('t.code', 'like', `${state}%`)]));
  if (q)
    rows = rows.where((eb) =>
      eb.or([eb('t.name', 'ilike', `%${escapeLike(q)}%`), eb('t.code', 'ilike', `${escapeLike(q)}%`)]),
    );
  return rows.orderBy('t.name').limit(500).execute();
}
