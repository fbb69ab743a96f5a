import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked, taggables } from '../schemas/schema-backed.js';

/** Union members (fields: schemas/member.json): classification, union, trade, employer, dispatch type, steward flag. */
export const membersResource: ResourceDefinition = schemaBacked(
  builtinType('member', {
    table: 'members',
    fields: {
      tag_ids: taggables('member'),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone', 'member_number'],
    defaultSort: { field: 'last_name', order: 'asc' },
    softDelete: true,
    optionLabel: `first_name || ' ' || last_name`,
    optionColumns: ['member_number'],
    hooks: {
      beforeWrite(values) {
        if (values.last_name === null) values.last_name = '';
        if (values.is_steward === null) values.is_steward = false;
        return values;
      },
      present(records) {
        for (const record of records) record.name = `${record.first_name} ${record.last_name ?? ''}`.trim();
      },
    },
  }),
  { attachments: true },
);
