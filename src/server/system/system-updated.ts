import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';

/**
 * After a deploy, the first process on the new version tells every open browser (SPEC section 4: the
 * '{product} has updated' overlay). The last announced version is kept in the database so a plain restart
 * stays quiet and several processes announce a deploy once.
 */
export async function announceDeploy(ctx: AppContext, version: string) {
  const previous = await sql<{ value: string }>`
    with old as (select value from app_settings where key = 'deployed_version')
    insert into app_settings (key, value) values ('deployed_version', ${JSON.stringify(version)}::jsonb)
    on conflict (key) do update set value = excluded.value
    returning (select value from old) as value`.execute(ctx.db);
  const before = previous.rows[0]?.value ?? null;
  if (before !== null && before !== version)
    ctx.events.emit({ event: 'SystemUpdated', type: 'system', id: null, userId: null, data: { version } });
}
