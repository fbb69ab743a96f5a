import type { Kysely } from 'kysely';
import { canOnCategory } from '../../common/permissions.js';
import type { ResourceDefinition } from '../records/resource.js';

export const userChannel = (userId: number) => `private-App.Models.User.${userId}`;
export const roleChannel = (roleId: number) => `private-App.Models.Role.${roleId}`;

/**
 * A model event goes to the channel of every role whose permissions let it read the record, so what a person
 * may not read never reaches their browser, with the embedded hub or an outside Pusher service alike.
 */
export async function roleChannels(db: Kysely<any>, def: ResourceDefinition, record: Record<string, any>): Promise<string[]> {
  const roles = await db.selectFrom('roles').select(['id', 'permissions']).where('deleted_at', 'is', null).execute();
  const entity = def.permission ?? def.type;
  const category = def.categoryColumn ? record[def.categoryColumn] : null;
  return roles
    .filter((role) => canOnCategory({ role_id: role.id, permissions: role.permissions as string[] }, entity, 'read', category))
    .map((role) => roleChannel(role.id));
}
