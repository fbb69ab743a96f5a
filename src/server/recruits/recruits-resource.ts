import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked, taggables } from '../schemas/schema-backed.js';

/** Workers being signed up (fields: schemas/recruit.json): where they work and how far they are. */
export const recruitsResource: ResourceDefinition = schemaBacked(
  builtinType('recruit', {
    table: 'recruits',
    fields: {
      tag_ids: taggables('recruit'),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    optionLabel: `first_name || ' ' || last_name`,
    hooks: {
      beforeWrite(values) {
        if (values.last_name === null) values.last_name = '';
        if (values.status === null) values.status = 'prospect';
        return values;
      },
      present(records) {
        for (const record of records) record.name = `${record.first_name} ${record.last_name ?? ''}`.trim();
      },
    },
  }),
  { attachments: true },
);
