import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { checkSlug, ownership, ref, refs, schemaBacked, tagIds } from '../schemas/schema-backed.js';

/**
 * Contractors. `type` (general, non-union, none, union: the contractor types list) is the permission category:
 * `contractor:read:union` reads union contractors only.
 */
export const contractorsResource: ResourceDefinition = schemaBacked(
  {
    name: 'contractors',
    type: 'contractor',
    table: 'contractors',
    singular: 'Contractor',
    fields: {
      name: { kind: 'text', required: true, max: 200 },
      type: { kind: 'text', required: true, max: 60 },
      phone: { kind: 'phone' },
      email: { kind: 'email' },
      website: { kind: 'url' },
      street: { kind: 'text', max: 200 },
      city: { kind: 'text', max: 100 },
      county: { kind: 'text', max: 100 },
      state: { kind: 'text', max: 100 },
      postal_code: { kind: 'text', max: 20, label: 'postal code' },
      latitude: { kind: 'number', min: -90, max: 90 },
      longitude: { kind: 'number', min: -180, max: 180 },
      union_id: ref('unions', 'union'),
      trade_ids: refs('contractor_trades', 'contractor_id', 'trade_id', 'trades', 'trades'),
      contact_ids: refs('contractor_contacts', 'contractor_id', 'contact_id', 'contacts', 'contacts'),
      tag_ids: tagIds('contractor'),
      external_id: { kind: 'text', max: 100, label: 'external id' },
      notes: { kind: 'text', max: 20_000 },
      ...ownership(),
    },
    readOnly: ['import_id'],
    search: ['name', 'phone', 'email', 'city', 'external_id'],
    defaultSort: { field: 'name', order: 'asc' },
    softDelete: true,
    restorable: true,
    categoryColumn: 'type',
    optionColumns: ['type'],
    hooks: {
      async beforeWrite(values, { trx }) {
        if ('type' in values) {
          const allowed = await checkSlug(trx, 'contractor_types', values.type);
          if (allowed) throw fieldError('type', `The type must be one of: ${allowed.join(', ')}.`);
        }
        return values;
      },
    },
  },
  { attachments: true },
);
