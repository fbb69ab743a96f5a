import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { pivot, schemaBacked, taggables } from '../schemas/schema-backed.js';

/**
 * Contractors (fields: schemas/contractor.json). `type` (general, non-union, none, union: the contractor types
 * list) is the permission category: `contractor:read:union` reads union contractors only. A person limited to a
 * turf (`site:read:turf`) reads the contractors of their turf's sites.
 */
export const contractorsResource: ResourceDefinition = schemaBacked(
  builtinType('contractor', {
    table: 'contractors',
    fields: {
      trade_ids: pivot('contractor_trades', 'contractor_id', 'trade_id'),
      contact_ids: pivot('contractor_contacts', 'contractor_id', 'contact_id'),
      tag_ids: taggables('contractor'),
    },
    readOnly: ['import_id'],
    search: ['name', 'phone', 'email', 'city', 'external_id'],
    defaultSort: { field: 'name', order: 'asc' },
    softDelete: true,
    categoryColumn: 'type',
    optionColumns: ['type'],
  }),
  { attachments: true },
);
