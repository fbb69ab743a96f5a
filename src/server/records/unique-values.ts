import { type RawBuilder, sql } from 'kysely';
import { CASELESS_KINDS } from '../../common/field-types/sql.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { ValidationError } from '../http/errors.js';
import { isBlank } from './fields.js';
import { customIndexExpression, fieldExpression, filterCondition } from './list-query.js';
import type { RecordService } from './record-service.js';
import { labelExpression } from './representation.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

/**
 * The fields marked unique (`options.unique`): no two live records of a type hold the same value (text compared
 * without case, as lists filter it). Checked on every write path before the row is written, so the refusal names the
 * record that holds the value; the unique index (schemas/indexes.ts ensureUniqueIndex) keeps two writes at the same
 * moment from both passing, and its error is answered the same way (`uniqueViolation`).
 */
export class UniqueValues {
  /** Values claimed by earlier rows of the same batch (an import's), by field. */
  private readonly claimed = new Map<string, Map<string, string>>();

  constructor(
    private readonly service: RecordService,
    private readonly db: RecordService['db'],
    private readonly def: ResourceDefinition,
    private readonly fields: Record<string, FieldSpec>,
    private readonly user: AuthUser | null,
  ) {}

  /** Whether any field of the type is unique (else there is nothing to check). */
  static any(fields: Record<string, FieldSpec>) {
    return Object.values(fields).some((spec) => spec.unique);
  }

  /**
   * Refuses (422 on the field) a value another live record holds, or one an earlier row of this batch claimed (`row`
   * names that row in the message); then claims the values for the rows after it.
   */
  async check(values: Record<string, unknown>, id?: number, row?: string) {
    const errors: Record<string, string[]> = {};
    for (const [field, value] of Object.entries(values)) {
      const spec = this.fields[field];
      if (!spec?.unique || isBlank(value)) continue;
      const key = comparable(value, spec);
      const earlier = this.claimed.get(field)?.get(key);
      if (earlier) {
        errors[field] = [`The ${spec.label ?? field} “${String(value)}” is already in ${earlier}: it must be unique.`];
        continue;
      }
      const holder = await this.holder(field, spec, value, id);
      if (holder) errors[field] = [`The ${spec.label ?? field} “${String(value)}” is already held by ${holder}.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (row)
      for (const [field, value] of Object.entries(values)) {
        const spec = this.fields[field];
        if (!spec?.unique || isBlank(value)) continue;
        if (!this.claimed.has(field)) this.claimed.set(field, new Map());
        this.claimed.get(field)!.set(comparable(value, spec), row);
      }
  }

  /** The live record (other than `id`) holding the value, named as the person may read it. */
  private async holder(field: string, spec: FieldSpec, value: unknown, id?: number): Promise<string | null> {
    let query = dynamicTables(this.db)
      .selectFrom(`${this.def.table} as t`)
      .select('t.id')
      .where(filterCondition({ field, operator: 'eq', value }, spec) as RawBuilder<boolean>);
    if (this.def.softDelete) query = query.where('t.deleted_at', 'is', null);
    if (this.def.scope) query = query.where(`t.${this.def.scope.column}`, '=', this.def.scope.value);
    if (id !== undefined) query = query.where('t.id', '!=', id);
    const found = await query.limit(1).executeTakeFirst();
    if (!found) return null;
    const label = labelExpression(this.def);
    const readable = label
      ? await (await this.service.visibleRows(this.db, this.def, this.user))
          .select(label.as('label'))
          .where('t.id', '=', found.id)
          .executeTakeFirst()
      : undefined;
    const singular = (await this.service.nameOf(this.def, this.db)).toLowerCase();
    return readable ? `“${String(readable.label)}” (${singular} #${found.id})` : `another ${singular} (#${found.id})`;
  }
}

/** The value as uniqueness compares it: text without case. */
function comparable(value: unknown, spec: FieldSpec) {
  return CASELESS_KINDS.has(spec.kind) ? String(value).toLowerCase() : JSON.stringify(value);
}

/**
 * The key of a unique field's index: the value as the check compares it (`lower` for text), a key of `custom` or a
 * column.
 */
export function uniqueIndexExpression(field: string, spec: FieldSpec): RawBuilder<unknown> | null {
  if (spec.storage === 'custom') return customIndexExpression(field, spec);
  if (spec.storage && spec.storage !== 'column') return null;
  const column = fieldExpression(field, spec, null);
  return CASELESS_KINDS.has(spec.kind) ? sql`lower((${column})::text)` : column;
}

/** A unique index refused a write that the check could not see coming (two at once): the 422 the check gives. */
export function uniqueViolation(error: unknown, fields: Record<string, FieldSpec>): ValidationError | null {
  const code = (error as { code?: string } | null)?.code;
  const constraint = String((error as { constraint?: string } | null)?.constraint ?? (error as Error)?.message ?? '');
  if (code !== '23505' || !constraint.includes('_uq')) return null;
  const field = Object.keys(fields).find((key) => fields[key].unique && constraint.includes(`_${key}_`));
  const key = field ?? 'record';
  const label = field ? (fields[field].label ?? field) : 'value';
  return new ValidationError({ [key]: [`The ${label} was just given to another record: it must be unique.`] });
}
