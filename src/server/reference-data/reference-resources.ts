import { slugify } from '../../common/slugs.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked } from '../schemas/schema-backed.js';

/**
 * A reference list (SPEC section 7, marked (r); fields: schemas/{type}.json): name, slug, colour, description,
 * and the list's order (`position`, a system column); soft delete and restore; a slug made from the name when
 * none is given, unique among live rows.
 */
export function reference(type: string, table: string): ResourceDefinition {
  const def = builtinType(type, {
    table,
    fields: { position: { kind: 'integer', min: 0, max: 100_000 } },
    search: ['name', 'slug'],
    defaultSort: { field: 'position', order: 'asc' },
    softDelete: true,
    optionColumns: ['slug', 'color'],
    hooks: {
      async beforeWrite(values, { trx, action, existing }) {
        const prepared = { ...values };
        if (action === 'create' && !prepared.slug && prepared.name) prepared.slug = slugify(prepared.name) || null;
        if (prepared.slug) {
          const taken = await dynamicTables(trx)
            .selectFrom(table)
            .select('id')
            .where('slug', '=', prepared.slug)
            .where('deleted_at', 'is', null)
            .$if(Boolean(existing), (q) => q.where('id', '!=', existing!.id))
            .executeTakeFirst();
          if (taken)
            throw fieldError(
              'slug',
              `The slug "${prepared.slug}" is already used by another ${def.singular.toLowerCase()}.`,
            );
        }
        if (action === 'create' && prepared.position === undefined) {
          const last = await dynamicTables(trx)
            .selectFrom(table)
            .select((eb) => eb.fn.max('position').as('max'))
            .executeTakeFirst();
          prepared.position = Number(last?.max ?? -1) + 1;
        }
        return prepared;
      },
    },
  });
  return def;
}

export const buildingTypesResource = schemaBacked(reference('building-type', 'building_types'));
export const classificationTypesResource = schemaBacked(reference('classification-type', 'classification_types'));
export const classificationsResource = schemaBacked(reference('classification', 'classifications'));
export const contactStatusesResource = schemaBacked(reference('contact-status', 'contact_statuses'));
export const contractorTypesResource = schemaBacked(reference('contractor-type', 'contractor_types'));
export const dispatchTypesResource = schemaBacked(reference('dispatch-type', 'dispatch_types'));
export const sitePhasesResource = schemaBacked(reference('site-phase', 'site_phases'));
export const siteStatusesResource = schemaBacked(reference('site-status', 'site_statuses'));
export const siteTypesResource = schemaBacked(reference('site-type', 'site_types'));
/** SPEC calls the screen "crafts"; the permission entity and the API are trades. */
export const tradesResource = schemaBacked(reference('trade', 'trades'));
export const unionsResource = schemaBacked(reference('union', 'unions'));
/** Tags (schemas/fixed/tag.json): not a record type (no stored schema, no custom fields, no restore route), attached to records through `tag_ids`. */
export const tagsResource: ResourceDefinition = reference('tag', 'tags');

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
