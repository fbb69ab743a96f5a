import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { checkSlug, ownership, ref, refs, schemaBacked, tagIds } from '../schemas/schema-backed.js';

/** People met on sites and at contractors. `status` is a contact status slug (prospect, interested, ...). */
export const contactsResource: ResourceDefinition = schemaBacked(
  {
    name: 'contacts',
    type: 'contact',
    table: 'contacts',
    singular: 'Contact',
    fields: {
      first_name: { kind: 'text', required: true, max: 100, label: 'first name' },
      last_name: { kind: 'text', max: 100, label: 'last name' },
      email: { kind: 'email' },
      phone: { kind: 'phone' },
      status: { kind: 'text', max: 60 },
      contractor_id: ref('contractors', 'employer'),
      trade_id: ref('trades', 'trade'),
      title: { kind: 'text', max: 200 },
      site_ids: refs('site_contacts', 'contact_id', 'site_id', 'sites', 'sites'),
      contractor_ids: refs('contractor_contacts', 'contact_id', 'contractor_id', 'contractors', 'contractors'),
      tag_ids: tagIds('contact'),
      notes: { kind: 'text', max: 20_000 },
      ...ownership(),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone'],
    defaultSort: { field: 'last_name', order: 'asc' },
    softDelete: true,
    restorable: true,
    optionLabel: `first_name || ' ' || last_name`,
    optionColumns: ['email', 'status'],
    hooks: {
      async beforeWrite(values, { trx }) {
        if ('status' in values) {
          if (values.status === null) values.status = 'prospect';
          const allowed = await checkSlug(trx, 'contact_statuses', values.status);
          if (allowed) throw fieldError('status', `The status must be one of: ${allowed.join(', ')}.`);
        }
        if (values.last_name === null) values.last_name = '';
        return values;
      },
      present(records) {
        for (const record of records) record.name = `${record.first_name} ${record.last_name ?? ''}`.trim();
      },
    },
  },
  { attachments: true },
);
