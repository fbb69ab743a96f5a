import type { ResourceDefinition } from '../records/resource.js';
import { ownership, ref, schemaBacked, tagIds } from '../schemas/schema-backed.js';

/** Union members: classification, union, trade, employer, dispatch type, steward flag. */
export const membersResource: ResourceDefinition = schemaBacked(
  {
    name: 'members',
    type: 'member',
    table: 'members',
    singular: 'Member',
    fields: {
      first_name: { kind: 'text', required: true, max: 100, label: 'first name' },
      last_name: { kind: 'text', max: 100, label: 'last name' },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      member_number: { kind: 'text', max: 60, label: 'member number' },
      classification_id: ref('classifications', 'classification'),
      union_id: ref('unions', 'union'),
      trade_id: ref('trades', 'trade'),
      contractor_id: ref('contractors', 'employer'),
      dispatch_type_id: ref('dispatch_types', 'dispatch type'),
      is_steward: { kind: 'boolean', label: 'steward' },
      joined_at: { kind: 'date', label: 'joined on' },
      tag_ids: tagIds('member'),
      notes: { kind: 'text', max: 20_000 },
      ...ownership(),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone', 'member_number'],
    defaultSort: { field: 'last_name', order: 'asc' },
    softDelete: true,
    restorable: true,
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
  },
  { attachments: true },
);
