import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { hashPassword } from '../auth/passwords.js';
import { endSessionsOf, sessionIdOf } from '../auth/sessions.js';
import { fieldError, forbidden } from '../http/errors.js';
import { userChannel } from '../realtime/channels.js';
import type { ResourceDefinition } from '../records/resource.js';
import { assertMayGiveRole, assertMayManageAccount } from './account-rules.js';

export const usersResource: ResourceDefinition = {
  name: 'users',
  type: 'user',
  table: 'users',
  singular: 'User',
  fields: {
    first_name: { kind: 'text', required: true, max: 100, label: 'first name' },
    last_name: { kind: 'text', max: 100, label: 'last name' },
    email: { kind: 'email', required: true },
    password: { kind: 'text', min: 8, max: 200, sortable: false, filterable: false },
    role_id: { kind: 'integer', required: true, label: 'role', min: 1 },
    team_id: { kind: 'integer', label: 'team', min: 1 },
    team_ids: {
      kind: 'integer[]',
      label: 'teams',
      storage: { pivot: 'team_user', ownKey: 'user_id', otherKey: 'team_id' },
    },
    goals: { kind: 'json', sortable: false, filterable: false },
    preferences: { kind: 'json', sortable: false, filterable: false },
  },
  readOnly: ['name', 'role', 'last_login_at', 'password_confirmation', 'permissions', 'realtime_key'],
  hidden: ['password', 'realtime_key', 'preferences'],
  search: ['first_name', 'last_name', 'email'],
  defaultSort: { field: 'last_name', order: 'asc' },
  softDelete: true,
  restorable: true,
  hooks: {
    async beforeWrite(values, { trx, action, existing, user }) {
      const prepared = { ...values };
      // The server's own writes (registration, a password reset) have no acting person.
      if (user) {
        if (existing) await assertMayManageAccount(trx, user, existing, 'change');
        const roleChanges = 'role_id' in prepared && prepared.role_id !== (existing?.role_id ?? undefined);
        if (roleChanges && existing?.id === user.id) throw forbidden('You may not change your own role.');
        if (roleChanges && prepared.role_id) await assertMayGiveRole(trx, user, prepared.role_id);
      }
      if (action === 'create' && !prepared.password) throw fieldError('password', 'The password field is required.');
      if (prepared.password) prepared.password = await hashPassword(prepared.password);
      else delete prepared.password;
      if (action === 'create') prepared.realtime_key = randomBytes(16).toString('hex');
      if (prepared.email) {
        const taken = await trx
          .selectFrom('users')
          .select('id')
          .where(sql`lower(email)`, '=', prepared.email.toLowerCase())
          .where('deleted_at', 'is', null)
          .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
          .executeTakeFirst();
        if (taken) throw fieldError('email', 'The email has already been taken.');
      }
      if (prepared.role_id) {
        const role = await trx
          .selectFrom('roles')
          .select('id')
          .where('id', '=', prepared.role_id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!role) throw fieldError('role_id', 'The selected role does not exist.');
      }
      if (prepared.team_id) {
        const team = await trx
          .selectFrom('teams')
          .select('id')
          .where('id', '=', prepared.team_id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!team) throw fieldError('team_id', 'The selected team does not exist.');
      }
      return prepared;
    },
    async beforeRemove(existing, { trx, user }) {
      if (user) await assertMayManageAccount(trx, user, existing, 'delete');
    },
    async afterWrite(record, { trx, user, action, values }) {
      if (action === 'restore' && user) await assertMayManageAccount(trx, user, record, 'restore');
      // A new password signs the person out everywhere else: whoever else knew the old one, or holds a session
      // opened with it, is out. Changing one's own keeps the session doing it.
      if (action === 'update' && values?.password)
        await endSessionsOf(trx, record.id, user?.id === record.id ? sessionIdOf(user) : undefined);
    },
    async present(records, db) {
      const roleIds = [...new Set(records.map((r) => r.role_id).filter(Boolean))];
      const roles = roleIds.length
        ? await db.selectFrom('roles').select(['id', 'slug', 'name']).where('id', 'in', roleIds).execute()
        : [];
      const byId = new Map(roles.map((role) => [role.id, role]));
      for (const record of records) {
        record.name = `${record.first_name} ${record.last_name}`.trim();
        record.role = byId.get(record.role_id) ?? null;
      }
    },
  },
  channels: (record) => [userChannel(record.id)],
};
