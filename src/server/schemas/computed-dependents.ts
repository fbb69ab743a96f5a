import type { Kysely } from 'kysely';
import { fieldTypeModule } from '../../common/field-types.js';
import type { RelationTarget, RelationTargetInfo, SchemaField } from '../../common/schema-types.js';
import { fieldError } from '../http/errors.js';
import { checkFieldOptions, type FieldOfType } from './field-specs.js';
import { schemaStore } from './schema-store.js';

/** The fields of a stored schema, in their order, as their checks see them. */
export async function storedFields(db: Kysely<any>, schemaId: number): Promise<FieldOfType[]> {
  const rows = await db
    .selectFrom('schema_fields')
    .select(['slug', 'name', 'type', 'required', 'options', 'column'])
    .where('schema_id', '=', schemaId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row: any) => ({ ...row, options: row.options ?? {} }) as FieldOfType);
}

/** The fields of a type with one field put in as it will be (added or changed), or taken out (`next` null). */
export function withField(fields: readonly FieldOfType[], slug: string, next: FieldOfType | null): FieldOfType[] {
  const others = fields.filter((field) => field.slug !== slug);
  return next ? [...others, next] : others;
}

/**
 * A change to a field (renamed, another type, deleted: `next` null) that a computed field of its type (a formula) no
 * longer works with is refused, naming that formula and what breaks (422 on `field`): the formula is changed first.
 */
export async function refuseBreakingComputed(
  db: Kysely<any>,
  schemaId: number,
  changed: Pick<SchemaField, 'slug' | 'name'>,
  next: FieldOfType | null,
  targets: Record<RelationTarget, RelationTargetInfo>,
  field = 'name',
) {
  const fields = withField(await storedFields(db, schemaId), changed.slug, next);
  const computing = fields.filter((other) => other.slug !== changed.slug && fieldTypeModule(other.type).compute);
  if (!computing.length) return;
  // Lookups and rollups read the other record types too.
  const schema = await db.selectFrom('schemas').select('type').where('id', '=', schemaId).executeTakeFirst();
  const types = schema ? (await schemaStore(db).snapshot(db)).typeScope(schema.type) : undefined;
  for (const other of computing) {
    const checked = checkFieldOptions(other.type, other.options, targets, { self: other.slug, fields, types });
    if ('error' in checked)
      throw fieldError(
        field,
        `The ${fieldTypeModule(other.type).label.toLowerCase()} “${other.name}” uses “${changed.name}”: after this change ${lowerFirst(checked.error)} Change that formula first.`,
      );
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
