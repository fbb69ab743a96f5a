import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked, taggables } from '../schemas/schema-backed.js';

/** Grievances (fields: schemas/grievance.json): a member's complaint against a contractor on a site, open or closed. */
export const grievancesResource: ResourceDefinition = schemaBacked(
  builtinType('grievance', {
    table: 'grievances',
    fields: {
      tag_ids: taggables('grievance'),
    },
    search: ['title', 'description'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    optionLabel: 'title',
    optionColumns: ['status'],
    hooks: {
      beforeWrite(values, { existing }) {
        if (values.status === null) values.status = 'open';
        const filed = values.filed_at ?? existing?.filed_at;
        const closed = values.closed_at ?? existing?.closed_at;
        const day = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);
        if (filed && closed && day(closed) < day(filed)) {
          throw fieldError('closed_at', 'The closed on date must be on or after the filed on date.');
        }
        return values;
      },
    },
  }),
  { attachments: true },
);
