import type { ResourceDefinition } from '../records/resource.js';
import { ownership, ref, schemaBacked, tagIds } from '../schemas/schema-backed.js';

export const RECRUIT_STATUSES = ['prospect', 'interested', 'signed', 'declined'] as const;

/** Workers being signed up: where they work and how far they are. */
export const recruitsResource: ResourceDefinition = schemaBacked(
  {
    name: 'recruits',
    type: 'recruit',
    table: 'recruits',
    singular: 'Recruit',
    fields: {
      first_name: { kind: 'text', required: true, max: 100, label: 'first name' },
      last_name: { kind: 'text', max: 100, label: 'last name' },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      trade_id: ref('trades', 'trade'),
      contractor_id: ref('contractors', 'employer'),
      site_id: ref('sites', 'site'),
      status: { kind: 'enum', options: RECRUIT_STATUSES },
      signed_at: { kind: 'date', label: 'signed on' },
      tag_ids: tagIds('recruit'),
      notes: { kind: 'text', max: 20_000 },
      ...ownership(),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    restorable: true,
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
  },
  { attachments: true },
);
