/**
 * The records a lookup or a rollup reads, as the field dialog offers them: this type's relations to another type
 * (`through`), and the relations of other types pointing at this one (`from: type.field`), with the related type's
 * fields by name. Everything comes from the loaded record types; the server checks the choice again on save.
 */
import { valueKind } from '../../../../../common/field-types';
import type { RecordSchema, SchemaField } from '../../../../../common/schema-types';
import type { Schema } from '../../../../system/types';
import { asRecordSchema } from '../../../schema';

export interface RelatedRecords {
  /** The option naming them: `through` (this type's relation) or `from` (another type's relation to this one). */
  key: 'through' | 'from';
  /** The option's value: a relation slug, or `type.field`. */
  value: string;
  /** How the dialog names them ("Visits (their Site)", "General contractor"). */
  label: string;
  /** The related record type. */
  other: RecordSchema;
}

const targetOf = (field: SchemaField) => (typeof field.options?.target === 'string' ? field.options.target : '');

/** The kind of value a field holds (number, date, text...). */
export const kindOfField = (field: SchemaField) =>
  valueKind(String(field.type), (field.options ?? {}) as Record<string, unknown>);

/** This type's relations to records of another type: what a lookup or a rollup `through` reads. */
export function relationsOf(schema: RecordSchema | undefined, schemas: readonly Schema[]): RelatedRecords[] {
  if (!schema) return [];
  const byType = new Map(schemas.map((one) => [one.type, asRecordSchema(one)]));
  return schema.fields.flatMap((field) => {
    const other = field.type === 'relation' ? byType.get(targetOf(field)) : undefined;
    return other ? [{ key: 'through' as const, value: field.slug, label: field.name || field.slug, other }] : [];
  });
}

/** Other types' relations pointing at this type: what a rollup `from` counts (a site's visits). */
export function relationsTo(schema: RecordSchema | undefined, schemas: readonly Schema[]): RelatedRecords[] {
  if (!schema) return [];
  return schemas.map(asRecordSchema).flatMap((other) =>
    other.fields
      .filter((field) => field.type === 'relation' && targetOf(field) === schema.type)
      .map((field) => ({
        key: 'from' as const,
        value: `${other.type}.${field.slug}`,
        label: `${other.name_plural} (their ${field.name || field.slug})`,
        other,
      })),
  );
}
