import type { AppContext } from '../app-context.js';

/**
 * Who has a record open (SPEC: two people, one record): `presence-record.{type}.{id}`, e.g.
 * `presence-record.site.12`. A person may join when they may read that record (its permission, its category and
 * row rules: the same check as GET /api/{resource}/{id}); the others see `{id, name}`.
 */
export const RECORD_PRESENCE_PATTERN = /^presence-record\.([a-z][a-z0-9-]{0,59})\.(\d{1,10})$/;

export function registerRecordPresence(ctx: AppContext) {
  ctx.realtime.addChannelRule(RECORD_PRESENCE_PATTERN, async (user, match) => {
    const type = match[1]!;
    const id = Number(match[2]);
    const def = ctx.resources.byType(type);
    if (!def || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return false;
    try {
      await ctx.records.show(user, def, id);
    } catch {
      return false;
    }
    return { id: user.id, name: user.name };
  });
}
