import type { Kysely } from 'kysely';
import { canOnCategory, limitedToTurf } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';

export const userChannel = (userId: number) => `private-App.Models.User.${userId}`;
export const roleChannel = (roleId: number) => `private-App.Models.Role.${roleId}`;

/**
 * A model event goes to the channel of every role whose permissions let it read the record, so what a person
 * may not read never reaches their browser, with the embedded hub or an outside Pusher service alike. For a role
 * limited to a turf (`site:read:turf`), whose members read different rows of a type with a row rule, the event goes
 * instead to the own channel of each member who may read the record (the record service's read rule decides).
 */
export async function roleChannels(
  db: Kysely<any>,
  records: RecordService,
  def: ResourceDefinition,
  record: Record<string, any>,
): Promise<string[]> {
  const roles = await db.selectFrom('roles').select(['id', 'permissions']).where('deleted_at', 'is', null).execute();
  const entity = def.permission ?? def.type;
  const category = def.categoryColumn ? record[def.categoryColumn] : null;
  const channels: string[] = [];
  for (const role of roles) {
    const subject = { role_id: role.id, permissions: role.permissions as string[] };
    if (!canOnCategory(subject, entity, 'read', category)) continue;
    if (!limitedToTurf(subject) || !def.rowFilter || !Number.isInteger(record.id)) channels.push(roleChannel(role.id));
    else channels.push(...(await membersWhoRead(db, records, def, record.id, subject)).map(userChannel));
  }
  return channels;
}

/** The members of a role who may read record `id` of `def` now (soft-deleted included: a deletion is news). */
async function membersWhoRead(
  db: Kysely<any>,
  records: RecordService,
  def: ResourceDefinition,
  id: number,
  role: { role_id: number; permissions: string[] },
) {
  const members = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.team_id', db.fn.agg<number[]>('array_agg', ['tu.team_id']).as('team_ids')])
    .leftJoin('team_user as tu', 'tu.user_id', 'u.id')
    .where('u.role_id', '=', role.role_id)
    .where('u.deleted_at', 'is', null)
    .groupBy(['u.id', 'u.team_id'])
    .execute();
  const readers: number[] = [];
  for (const member of members) {
    const user = {
      ...role,
      id: member.id,
      team_id: member.team_id,
      team_ids: (member.team_ids ?? []).filter((t: number | null) => t !== null).map(Number),
    } as unknown as AuthUser;
    const row = await records
      .visibleRows(db, def, user, 'with')
      .select('t.id')
      .where('t.id', '=', id)
      .executeTakeFirst();
    if (row) readers.push(member.id);
  }
  return readers;
}
