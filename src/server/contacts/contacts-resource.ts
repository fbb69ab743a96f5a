import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { pivot, schemaBacked, taggables } from '../schemas/schema-backed.js';

/**
 * People met on sites and at contractors (fields: schemas/contact.json). `status` is a contact status slug (prospect,
 * interested, ...). A person limited to a turf (`site:read:turf`) reads the contacts of their turf's sites and contractors.
 */
export const contactsResource: ResourceDefinition = schemaBacked(
  builtinType('contact', {
    table: 'contacts',
    fields: {
      site_ids: pivot('site_contacts', 'contact_id', 'site_id'),
      contractor_ids: pivot('contractor_contacts', 'contact_id', 'contractor_id'),
      tag_ids: taggables('contact'),
    },
    readOnly: ['name', 'import_id'],
    search: ['first_name', 'last_name', 'email', 'phone'],
    defaultSort: { field: 'last_name', order: 'asc' },
    softDelete: true,
    optionLabel: `first_name || ' ' || last_name`,
    derivedFields: { name: ['first_name', 'last_name'] },
    optionColumns: ['email', 'status'],
    hooks: {
      beforeWrite(values) {
        if (values.status === null) values.status = 'prospect';
        if (values.last_name === null) values.last_name = '';
        return values;
      },
      present(records) {
        for (const record of records) record.name = `${record.first_name} ${record.last_name ?? ''}`.trim();
      },
    },
  }),
  { attachments: true },
);
