import { fieldError } from '../http/errors.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { ref, schemaBacked, SLUG_PATTERN } from '../schemas/schema-backed.js';
import { slugify } from '../seed/reference-data.js';

const referenceFields = (): Record<string, FieldSpec> => ({
  name: { kind: 'text', required: true, max: 100 },
  slug: { kind: 'text', max: 100, pattern: SLUG_PATTERN, patternMessage: 'The slug may only hold lower-case letters, digits and single dashes.' },
  color: { kind: 'color' },
  description: { kind: 'text', max: 2_000 },
  position: { kind: 'integer', min: 0, max: 100_000 },
});

/**
 * A reference list (SPEC section 7, marked (r)): name, slug, colour, description, position; soft delete and
 * restore; a slug made from the name when none is given, unique among live rows.
 */
function reference(name: string, type: string, singular: string, options: { table?: string; permission?: string; extra?: Record<string, FieldSpec>; restorable?: boolean } = {}): ResourceDefinition {
  const table = options.table ?? name.replace(/-/g, '_');
  return schemaBacked({
    name,
    type,
    permission: options.permission,
    table,
    singular,
    fields: { ...referenceFields(), ...options.extra },
    search: ['name', 'slug'],
    defaultSort: { field: 'position', order: 'asc' },
    softDelete: true,
    restorable: options.restorable ?? true,
    optionColumns: ['slug', 'color'],
    hooks: {
      async beforeWrite(values, { trx, action, existing }) {
        const prepared = { ...values };
        if (action === 'create' && !prepared.slug && prepared.name) prepared.slug = slugify(prepared.name) || null;
        if (prepared.slug) {
          const taken = await trx
            .selectFrom(table)
            .select('id')
            .where('slug', '=', prepared.slug)
            .where('deleted_at', 'is', null)
            .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
            .executeTakeFirst();
          if (taken) throw fieldError('slug', `The slug "${prepared.slug}" is already used by another ${singular.toLowerCase()}.`);
        }
        if (action === 'create' && prepared.position === undefined) {
          const last = await trx.selectFrom(table).select((eb) => eb.fn.max('position').as('max')).executeTakeFirst();
          prepared.position = Number(last?.max ?? -1) + 1;
        }
        return prepared;
      },
    },
  });
}

export const buildingTypesResource = reference('building-types', 'building-type', 'Building type');
export const classificationTypesResource = reference('classification-types', 'classification-type', 'Classification type');
export const classificationsResource = reference('classifications', 'classification', 'Classification', {
  extra: { classification_type_id: ref('classification_types', 'classification type') },
});
export const contactStatusesResource = reference('contact-statuses', 'contact-status', 'Contact status');
export const contractorTypesResource = reference('contractor-types', 'contractor-type', 'Contractor type');
export const dispatchTypesResource = reference('dispatch-types', 'dispatch-type', 'Dispatch type');
export const sitePhasesResource = reference('site-phases', 'site-phase', 'Site phase');
export const siteStatusesResource = reference('site-statuses', 'site-status', 'Site status');
export const siteTypesResource = reference('site-types', 'site-type', 'Site type');
/** SPEC calls the screen "crafts"; the permission entity and the API are trades. */
export const tradesResource = reference('trades', 'trade', 'Trade');
export const unionsResource = reference('unions', 'union', 'Union');
/** Tags: a basic resource (no restore route), attached to records through `tag_ids`. */
export const tagsResource: ResourceDefinition = { ...reference('tags', 'tag', 'Tag', { restorable: false }), customFields: undefined };

export const referenceResources = [
  buildingTypesResource,
  classificationTypesResource,
  classificationsResource,
  contactStatusesResource,
  contractorTypesResource,
  dispatchTypesResource,
  sitePhasesResource,
  siteStatusesResource,
  siteTypesResource,
  tradesResource,
  unionsResource,
  tagsResource,
];
