/**
 * Pure helpers over record types (schemas) for the generated screens: which schema a resource has, what a record
 * is called, which values a form may send back, and the few record types that have no schema on the server
 * (tags, features) described the same way so they get the same screens.
 */
import type { LogicBlock, RecordSchema, SchemaField } from '../../common/schema-types';
import type { Schema } from '../system/types';
import { resourceForType } from '../resources/names';

export type { RecordSchema, SchemaField, LogicBlock };

export function asRecordSchema(schema: Schema | RecordSchema): RecordSchema {
  const loose = schema as Partial<RecordSchema> & Schema;
  return {
    ...(loose as RecordSchema),
    resource: loose.resource ?? resourceForType(loose.type),
    fields: (loose.fields ?? []) as SchemaField[],
    actions: (loose.actions ?? []) as LogicBlock[],
    built_in: loose.built_in ?? true,
  };
}

const field = (schemaId: number, position: number, slug: string, name: string, type: SchemaField['type'], extra: Partial<SchemaField> = {}): SchemaField => ({
  id: `${schemaId}:${slug}` as unknown as number,
  schema_id: schemaId,
  slug,
  name,
  type,
  category: 'internal',
  internal: true,
  column: true,
  required: false,
  options: {},
  position,
  ...extra,
});

/** Record types the server serves without a schema, described for the generated screens. */
export const SYNTHETIC_SCHEMAS: readonly RecordSchema[] = [
  {
    id: -1,
    type: 'tag',
    name_singular: 'Tag',
    name_plural: 'Tags',
    position: 1000,
    custom: false,
    built_in: true,
    resource: 'tags',
    actions: [],
    fields: [
      field(-1, 0, 'name', 'Name', 'text', { required: true }),
      field(-1, 1, 'slug', 'Slug', 'slug'),
      field(-1, 2, 'color', 'Color', 'color'),
      field(-1, 3, 'description', 'Description', 'textarea'),
    ],
  },
  {
    id: -2,
    type: 'feature',
    name_singular: 'Feature',
    name_plural: 'Features',
    position: 1001,
    custom: false,
    built_in: true,
    resource: 'features',
    actions: [],
    fields: [
      field(-2, 0, 'name', 'Name', 'text', { required: true }),
      field(-2, 1, 'slug', 'Slug', 'slug', { required: true }),
      field(-2, 2, 'enabled', 'Enabled', 'boolean'),
      field(-2, 3, 'description', 'Description', 'textarea'),
    ],
  },
];

/** The schema of a resource among the loaded ones (or a synthetic one). */
export function schemaForResource(schemas: readonly (Schema | RecordSchema)[], resource: string): RecordSchema | undefined {
  const found = schemas.find((schema) => ((schema as RecordSchema).resource ?? resourceForType(schema.type)) === resource);
  if (found) return asRecordSchema(found);
  return SYNTHETIC_SCHEMAS.find((schema) => schema.resource === resource);
}

export function schemaForType(schemas: readonly (Schema | RecordSchema)[], type: string): RecordSchema | undefined {
  const found = schemas.find((schema) => schema.type === type);
  if (found) return asRecordSchema(found);
  return SYNTHETIC_SCHEMAS.find((schema) => schema.type === type);
}

export { recordLabel } from './label';

/** Fields the forms edit (the built-in attachments list is shown, not edited). */
export function editableFields(schema: RecordSchema): SchemaField[] {
  return schema.fields.filter((candidate) => !(candidate.options as Record<string, unknown> | undefined)?.read_only);
}

/**
 * The values a form sends: only the schema's editable fields (the server refuses keys it does not know), and on
 * update the `updated_at` the form was opened with, so a change saved meanwhile by someone else is refused (409).
 */
export function writableValues(values: Record<string, unknown>, schema: RecordSchema, loadedUpdatedAt?: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const candidate of editableFields(schema)) {
    if (candidate.slug in values && values[candidate.slug] !== undefined) out[candidate.slug] = values[candidate.slug];
  }
  if (loadedUpdatedAt) out.updated_at = loadedUpdatedAt;
  return out;
}

/**
 * Fields of other record types that point at records of `type`: what a show page lists as related records
 * (contacts of a site through `site_ids`, grievances through `site_id`...).
 */
export function relatedFields(schemas: readonly (Schema | RecordSchema)[], type: string): Array<{ schema: RecordSchema; field: SchemaField; target: string }> {
  const out: Array<{ schema: RecordSchema; field: SchemaField; target: string }> = [];
  for (const raw of schemas) {
    const schema = asRecordSchema(raw);
    for (const candidate of schema.fields) {
      const options = candidate.options as Record<string, unknown> | undefined;
      if (candidate.type !== 'relation' || options?.target !== type) continue;
      // The site contractors list ([{contractor_id, trade_id}]) is filtered through its id list.
      out.push({ schema, field: candidate, target: options?.with_trade ? 'contractor_ids' : candidate.slug });
    }
  }
  return out;
}
