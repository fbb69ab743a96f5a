/**
 * Pure helpers over record types (schemas) for the generated screens: which schema a resource has, what a record
 * is called, which values a form may send back, and the resources that have no stored schema (tags, features),
 * read from their schema files so they get the same screens.
 */

import featureFile from '../../../schemas/fixed/feature.json';
import tagFile from '../../../schemas/fixed/tag.json';
import { type LogicBlock, pluralizeSlug, type RecordSchema, type SchemaField } from '../../common/schema-types';
import { resourceForType } from '../resources/names';
import type { Schema } from '../system/types';

export type { LogicBlock, RecordSchema, SchemaField };

export function asRecordSchema(schema: Schema | RecordSchema): RecordSchema {
  const loose = schema as Partial<RecordSchema> & Schema;
  return {
    ...(loose as RecordSchema),
    resource: loose.resource ?? resourceForType(loose.type),
    fields: (loose.fields ?? []) as SchemaField[],
    actions: (loose.actions ?? []) as LogicBlock[],
    built_in: loose.built_in ?? true,
    restorable: loose.restorable ?? true,
  };
}

interface FixedSchemaFile {
  type: string;
  name_singular: string;
  name_plural: string;
  resource?: string;
  restorable?: boolean;
  position?: number;
  fields: Array<{ slug: string; name: string; type: string; required?: boolean; options?: Record<string, unknown> }>;
}

/** A schema file of schemas/fixed/ as the screens read a schema (it is not stored: its ids are made up). */
function fromFile(file: FixedSchemaFile, id: number): RecordSchema {
  return {
    id,
    type: file.type,
    name_singular: file.name_singular,
    name_plural: file.name_plural,
    resource: file.resource ?? pluralizeSlug(file.type),
    restorable: file.restorable ?? true,
    position: file.position ?? 0,
    custom: false,
    built_in: true,
    actions: [],
    fields: file.fields.map((field, position) => ({
      id: `${id}:${field.slug}` as unknown as number,
      schema_id: id,
      slug: field.slug,
      name: field.name,
      type: field.type as SchemaField['type'],
      category: 'internal',
      internal: true,
      column: true,
      required: field.required ?? false,
      options: field.options ?? {},
      position,
    })),
  };
}

/**
 * Resources the server serves without a stored schema (tags, features), described by their files in
 * schemas/fixed/ (the server validates them by the same files), so they get the same screens.
 */
export const FIXED_SCHEMAS: readonly RecordSchema[] = [fromFile(tagFile, -1), fromFile(featureFile, -2)];

/** The schema of a resource among the loaded ones (or a synthetic one). */
export function schemaForResource(
  schemas: readonly (Schema | RecordSchema)[],
  resource: string,
): RecordSchema | undefined {
  const found = schemas.find(
    (schema) => ((schema as RecordSchema).resource ?? resourceForType(schema.type)) === resource,
  );
  if (found) return asRecordSchema(found);
  return FIXED_SCHEMAS.find((schema) => schema.resource === resource);
}

export function schemaForType(schemas: readonly (Schema | RecordSchema)[], type: string): RecordSchema | undefined {
  const found = schemas.find((schema) => schema.type === type);
  if (found) return asRecordSchema(found);
  return FIXED_SCHEMAS.find((schema) => schema.type === type);
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
export function writableValues(
  values: Record<string, unknown>,
  schema: RecordSchema,
  loadedUpdatedAt?: string | null,
): Record<string, unknown> {
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
export function relatedFields(
  schemas: readonly (Schema | RecordSchema)[],
  type: string,
): Array<{ schema: RecordSchema; field: SchemaField; target: string }> {
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
