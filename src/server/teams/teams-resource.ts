import type { ResourceDefinition } from '../records/resource.js';

export const teamsResource: ResourceDefinition = {
  name: 'teams',
  type: 'team',
  table: 'teams',
  singular: 'Team',
  fields: {
    name: { kind: 'text', required: true, max: 100 },
    description: { kind: 'text', max: 2_000 },
    color: { kind: 'color' },
    user_ids: { kind: 'integer[]', label: 'members', storage: { pivot: 'team_user', ownKey: 'team_id', otherKey: 'user_id' } },
  },
  search: ['name'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: true,
  restorable: true,
};
