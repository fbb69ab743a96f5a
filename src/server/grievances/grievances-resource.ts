import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { ownership, ref, schemaBacked, tagIds } from '../schemas/schema-backed.js';

/** Grievances: a member's complaint against a contractor on a site, open or closed. */
export const grievancesResource: ResourceDefinition = schemaBacked(
  {
    name: 'grievances',
    type: 'grievance',
    table: 'grievances',
    singular: 'Grievance',
    fields: {
      title: { kind: 'text', required: true, max: 200 },
      status: { kind: 'enum', options: ['open', 'closed'] },
      member_id: ref('members', 'member'),
      contractor_id: ref('contractors', 'contractor'),
      site_id: ref('sites', 'site'),
      filed_at: { kind: 'date', label: 'filed on' },
      closed_at: { kind: 'date', label: 'closed on' },
      description: { kind: 'text', max: 20_000 },
      tag_ids: tagIds('grievance'),
      ...ownership(),
    },
    search: ['title', 'description'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    restorable: true,
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
  },
  { attachments: true },
);
