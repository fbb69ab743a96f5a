import type { Kysely } from 'kysely';
import { fieldTypeModule } from '../../common/field-types.js';
import type { RelationTarget, RelationTargetInfo, SchemaField } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError } from '../http/errors.js';
import { checkFieldOptions, type FieldOfType, siblingFields, type TypeScope } from './field-specs.js';
import { schemaStore } from './schema-store.js';

/** The fields of a stored schema, in their order, as their checks see them. */
export async function storedFields(db: Kysely<DB>, schemaId: number): Promise<FieldOfType[]> {
  const rows = await db
    .selectFrom('schema_fields')
    .select(['slug', 'name', 'type', 'required', 'options', 'column'])
    .where('schema_id', '=', schemaId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, options: row.options ?? {} }) as FieldOfType);
}

/** The fields of a type with one field put in as it will be (added or changed), or taken out (`next` null). */
export function withField(fields: readonly FieldOfType[], slug: string, next: FieldOfType | null): FieldOfType[] {
  const others = fields.filter((field) => field.slug !== slug);
  return next ? [...others, next] : others;
}

/**
 * A change to a field (renamed, another type, deleted: `next` null) that a computed field no longer works with is
 * refused, naming that field and what breaks (422 on `field`): the computed field is changed first. The computed
 * fields are those of its own type (a formula naming it) and those of other types reading it (a lookup showing it, a
 * rollup summing it or whose condition names it), whose check runs against this type's fields as they will be. A
 * lookup or rollup whose value would change kind (a number becoming text) is refused too: lists cast by that kind.
 */
export async function refuseBreakingComputed(
  db: Kysely<DB>,
  schemaId: number,
  changed: Pick<SchemaField, 'slug' | 'name'>,
  next: FieldOfType | null,
  targets: Record<RelationTarget, RelationTargetInfo>,
  field = 'name',
) {
  const fields = withField(await storedFields(db, schemaId), changed.slug, next);
  const schema = await db.selectFrom('schemas').select('type').where('id', '=', schemaId).executeTakeFirst();
  const snapshot = schema ? await schemaStore(db).snapshot(db) : undefined;
  const changedType = schema?.type ?? '';
  const refuse = (other: FieldOfType, on: string, why: string) => {
    const label = fieldTypeModule(other.type).label.toLowerCase();
    throw fieldError(
      field,
      `The ${label} “${other.name}”${on} uses “${changed.name}”: after this change ${lowerFirst(why)} Change that ${label} first.`,
    );
  };
  // This type's computed fields (a formula, a lookup or rollup of its own type).
  const computing = fields.filter((other) => other.slug !== changed.slug && fieldTypeModule(other.type).compute);
  const ownScope = snapshot ? withTypeFields(snapshot.typeScope(changedType), changedType, fields, targets) : undefined;
  for (const other of computing) {
    const checked = checkFieldOptions(other.type, other.options, targets, {
      self: other.slug,
      fields,
      types: ownScope,
    });
    if ('error' in checked) refuse(other, '', checked.error);
  }
  if (!snapshot) return;
  // Other types' lookups and rollups that read this type's records.
  for (const otherType of snapshot.list) {
    if (otherType.id === schemaId) continue;
    const before = snapshot.typeScope(otherType.type);
    const after = withTypeFields(before, changedType, fields, targets);
    for (const other of otherType.fields.filter((one) => fieldTypeModule(one.type).compute)) {
      const scope = { self: other.slug, fields: otherType.fields };
      const was = checkFieldOptions(other.type, other.options, targets, { ...scope, types: before });
      if ('error' in was) continue; // already broken: not this change's doing
      const will = checkFieldOptions(other.type, other.options, targets, { ...scope, types: after });
      const on = ` of ${otherType.name_plural}`;
      if ('error' in will) refuse(other, on, will.error);
      else if (will.options.result !== was.options.result)
        refuse(other, on, `it would give ${String(will.options.result)} instead of ${String(was.options.result)}.`);
    }
  }
}

/** A type scope in which `type` has the fields `fields` (as they will be after a change). */
function withTypeFields(
  scope: TypeScope,
  type: string,
  fields: readonly FieldOfType[],
  targets: Record<RelationTarget, RelationTargetInfo>,
): TypeScope {
  const changed = siblingFields(fields, targets);
  return { ...scope, typeFields: (other) => (other === type ? changed : scope.typeFields(other)) };
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
