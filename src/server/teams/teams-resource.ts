import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { pivot } from '../schemas/schema-backed.js';

/**
 * Teams (fields: schemas/team.json): `user_ids` are its members, kept in team_user, whose foreign key answers for
 * an id of no user (422 'No record in users has the id ...') instead of a check before the write.
 */
export const teamsResource: ResourceDefinition = builtinType('team', {
  table: 'teams',
  fields: { user_ids: { ...pivot('team_user', 'team_id', 'user_id'), references: undefined } },
  search: ['name'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: true,
});
