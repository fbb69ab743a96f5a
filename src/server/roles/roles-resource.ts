import { z } from 'zod';
import { checkRolePolicy } from '../access/policy-shape.js';
import { fieldError, forbidden } from '../http/errors.js';
import { roleChannel } from '../realtime/channels.js';
import type { ResourceDefinition } from '../records/resource.js';
import { assertMayGrant } from '../users/account-rules.js';

const permissionList = z.array(z.string().regex(/^[a-z][a-z0-9-]*(:[a-z0-9-]+){1,2}$/)).max(2_000);

export const rolesResource: ResourceDefinition = {
  name: 'roles',
  type: 'role',
  table: 'roles',
  singular: 'Role',
  fields: {
    slug: { kind: 'text', required: true, max: 60 },
    name: { kind: 'text', required: true, max: 100 },
    incognito: { kind: 'boolean' },
    permissions: { kind: 'json', sortable: false, filterable: false },
    // Row and field rules by record type (docs/security.md "The access policy"): checked in beforeWrite.
    policy: { kind: 'json', sortable: false, filterable: false },
  },
  search: ['name', 'slug'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: true,
  restorable: true,
  hooks: {
    async beforeWrite(values, { trx, existing, user }) {
      if ('permissions' in values) {
        const parsed = permissionList.safeParse(values.permissions ?? []);
        if (!parsed.success)
          throw fieldError('permissions', 'Permissions must be a list like "site:read" or "site:read:union".');
        values.permissions = [...new Set(parsed.data)].sort();
      }
      if ('policy' in values) values.policy = await checkRolePolicy(trx, values.policy);
      // Nobody grants what they do not hold (permissions, or rules wider than their own), nor edits a role that holds
      // more than they do. The server's own writes (a new record type's permissions) have no acting person.
      if (user) {
        if (existing) assertMayGrant(user, existing as { permissions: string[] }, 'change');
        assertMayGrant(
          user,
          {
            permissions: values.permissions ?? existing?.permissions ?? [],
            policy: 'policy' in values ? values.policy : (existing?.policy ?? {}),
          },
          existing ? 'change' : 'create',
        );
        if (values.incognito && !existing?.incognito && !user.incognito)
          throw forbidden('Only a person whose own role is incognito may make a role incognito.');
      }
      if (values.slug) {
        if (!/^[a-z0-9-]+$/.test(values.slug))
          throw fieldError('slug', 'The slug may only hold lower-case letters, digits and dashes.');
        const taken = await trx
          .selectFrom('roles')
          .select('id')
          .where('slug', '=', values.slug)
          .where('deleted_at', 'is', null)
          .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
          .executeTakeFirst();
        if (taken) throw fieldError('slug', 'The slug has already been taken.');
      }
      return values;
    },
    beforeRemove(existing, { user }) {
      if (user) assertMayGrant(user, existing as { permissions: string[] }, 'delete');
    },
    afterWrite(record, { user, action }) {
      if (action === 'restore' && user) assertMayGrant(user, record as { permissions: string[] }, 'restore');
    },
  },
  // Members of a role hear about changes to it even when they may not read roles: their permissions changed.
  channels: (record) => [roleChannel(record.id)],
};
