import {
  OptionProblem,
  type SiblingField,
  type Sql,
  type SqlFragment,
  type ValidationOption,
} from '../../common/field-types/define.js';
import { fieldTypeModule, isFieldType, optionKeys, SCHEMA_FIELD_TYPES } from '../../common/field-types.js';
import type {
  RelationTarget,
  RelationTargetInfo,
  SchemaField,
  SchemaFieldOptions,
  SchemaFieldType,
} from '../../common/schema-types.js';
import { filterProblem } from '../filters/compile-filter.js';
import { fieldSchema } from '../records/fields.js';
import type { FieldSpec } from '../records/resource.js';

/**
 * The table of the records an id relation target points at: its resource's path (`site-statuses` -> `site_statuses`),
 * or the rows of its schema in `custom_records` for a type made in the app.
 */
export function relationTable(info: RelationTargetInfo | undefined): NonNullable<FieldSpec['references']> | null {
  if (info?.value !== 'id') return null;
  if (info.schema_id !== undefined)
    return { table: 'custom_records', softDelete: true, scope: { column: 'schema_id', value: info.schema_id } };
  return { table: info.resource.replace(/-/g, '_'), softDelete: true };
}

/**
 * "Favorite Color" -> "favorite color" as Laravel-style messages want ("The favorite color must be ..."): each
 * capitalised word in lower case, acronyms and words of mixed case ("PLA", "iPhone") as written.
 */
function labelOf(name: string) {
  return name.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());
}

/** The kinds of value `search=` can look in. */
const SEARCHABLE_KINDS = new Set(['text', 'email', 'phone', 'url']);

/**
 * The validation of a schema field, built-in or custom, from its type's module (common/field-types/): its kind and
 * limits, what only the server checks (patterns, shapes, that related records exist), and the validation options its
 * administrator set (pattern, unique, default, read-only); its label from its name. `targets` are the relation targets
 * (relationTargets). Values of fields that are not columns live in `custom`; `schemaId`: the type is made in the app,
 * its rows are those of this schema in the shared `custom_records` (FieldSpec.schemaId).
 */
export function fieldSpecFor(
  field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>,
  targets: Record<RelationTarget, RelationTargetInfo>,
  recordType?: string,
  schemaId?: number | null,
): FieldSpec {
  const options: SchemaFieldOptions = field.options ?? {};
  const module = fieldTypeModule(field.type);
  const info = typeof options.target === 'string' ? targets[options.target] : undefined;
  const target = field.type === 'relation' && info ? { value: info.value, references: relationTable(info) } : undefined;
  const kind = module.kind(options, target?.value);
  const label = labelOf(field.name);
  const spec: FieldSpec = {
    kind,
    type: isFieldType(field.type) ? field.type : 'text',
    label,
    name: field.name,
    required: field.required,
    storage: field.column ? 'column' : 'custom',
    ...(schemaId != null && !field.column ? { schemaId } : {}),
    ...module.spec(options, { label, target, column: Boolean(field.column), recordType }),
  };
  if (!module.sort) spec.sortable = false;
  if (options.searchable === true && !field.column && module.textual && SEARCHABLE_KINDS.has(kind))
    spec.searchable = true;
  return withValidationOptions(spec, module.validation(options), options);
}

/**
 * The validation options an administrator set on a field, as its spec enforces them on every write path
 * (records/validate.ts, records/unique-values.ts): only those its type offers (`validation`).
 */
export function withValidationOptions(
  spec: FieldSpec,
  offered: readonly ValidationOption[],
  options: SchemaFieldOptions,
): FieldSpec {
  if (offered.includes('pattern') && typeof options.pattern === 'string' && options.pattern) {
    spec.pattern = new RegExp(`^(?:${options.pattern})$`, 'u');
    spec.patternMessage =
      typeof options.pattern_message === 'string' && options.pattern_message.trim()
        ? options.pattern_message.trim()
        : `The ${spec.label} does not have the expected form (${options.pattern}).`;
  }
  if (offered.includes('unique') && options.unique === true) spec.unique = true;
  if (offered.includes('default') && options.default !== undefined && options.default !== null)
    spec.default = options.default;
  if (offered.includes('read_only') && options.read_only === true) spec.readOnly = true;
  return spec;
}

export type FieldOfType = Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>;

/** The fields of a record type as a computed field (formula) sees them: each with its spec. */
export function siblingFields(
  fields: readonly FieldOfType[],
  targets: Record<RelationTarget, RelationTargetInfo>,
  schemaId?: number | null,
): SiblingField[] {
  return fields.map((field) => ({
    slug: field.slug,
    name: field.name,
    type: field.type,
    options: field.options ?? {},
    spec: fieldSpecFor(field, targets, undefined, schemaId),
  }));
}

/** Where a field's record type stands among the others: its name, the fields of another type, that type's rows. */
export interface TypeScope {
  type: string;
  typeFields(type: string): SiblingField[] | undefined;
  typeRows(type: string): FieldSpec['references'] | null;
}

/** The rows of live records of `info`'s type, as a subquery (a rollup reads them when no reader is asking). */
function liveRows(sql: Sql, references: NonNullable<FieldSpec['references']>): SqlFragment {
  const scope = references.scope ? sql` and ${sql.ref(references.scope.column)} = ${references.scope.value}` : sql``;
  const live = references.softDelete ? sql` and deleted_at is null` : sql``;
  return sql`(select * from ${sql.table(references.table)} where true${live}${scope})`;
}

/**
 * The specs of `fields` (slugs of a record type's fields) with the SQL of the computed ones (formulas, rollups: their
 * type's `compute`), worked out from every field of the type (`all`) and the other types (`scope`).
 */
export function withComputedValues(
  specs: Record<string, FieldSpec>,
  all: readonly FieldOfType[],
  targets: Record<RelationTarget, RelationTargetInfo>,
  scope?: TypeScope,
  schemaId?: number | null,
): Record<string, FieldSpec> {
  const computing = all.filter((field) => field.slug in specs && fieldTypeModule(field.type).compute);
  if (!computing.length) return specs;
  const fields = siblingFields(all, targets, schemaId);
  for (const field of computing) {
    const module = fieldTypeModule(field.type);
    const made = module.compute!(field.options ?? {}, { self: field.slug, fields, ...scope });
    const { computedOver, readsRows, readsRowsWhere } = made;
    // A kept rollup is read from the record (`custom`), where the record service writes it, when its own records
    // can be written (a type whose records are rows with ids); otherwise it is worked out as it is read.
    const kept = Boolean(made.keptBy && scope?.typeRows(scope.type));
    if (!kept) delete specs[field.slug].kept;
    // Rows under a condition are only read bound to a reader (RecordService.readerFields compiles the condition).
    const computed =
      made.computed ??
      (computedOver && readsRows && !kept
        ? (sql: Sql, alias: string | null) =>
            readsRowsWhere ? sql`null` : computedOver(sql, alias ?? 't', liveRows(sql, readsRows))
        : undefined);
    Object.assign(specs[field.slug], made, computed ? { computed } : {});
    if (!kept) delete specs[field.slug].keptBy;
  }
  return specs;
}

/**
 * Checks the options of a field of `type`; returns them normalised, or the option that is wrong and why. `scope`: the
 * field's slug and the fields of its type as they will be (a formula names them).
 */
export function checkFieldOptions(
  type: SchemaFieldType,
  raw: unknown,
  targets: Record<RelationTarget, RelationTargetInfo>,
  scope?: { self: string; fields: readonly FieldOfType[]; types?: TypeScope },
): { options: SchemaFieldOptions } | { error: string; key?: string } {
  if (!isFieldType(type)) return { error: `The type must be one of: ${SCHEMA_FIELD_TYPES.join(', ')}.` };
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    return { error: 'The options must be an object.' };
  const module = fieldTypeModule(type);
  const parsed = module.options.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      const [key] = issue.keys;
      return {
        key,
        error: `A ${module.label.toLowerCase()} field has no option “${key}”: it takes ${optionKeys(type).join(', ')}.`,
      };
    }
    return { key: String(issue.path[0] ?? ''), error: issue.message };
  }
  const checked = module.checkOptions(parsed.data, {
    targets,
    ...(scope ? { self: scope.self, fields: siblingFields(scope.fields, targets) } : {}),
    ...(scope?.types ? { type: scope.types.type, typeFields: scope.types.typeFields } : {}),
    checkCondition: (condition, fields) =>
      filterProblem(condition, Object.fromEntries(fields.map((field) => [field.slug, field.spec]))),
  });
  if (checked instanceof OptionProblem) return { key: checked.key, error: checked.message };
  if (JSON.stringify(checked).length > 50_000) return { error: 'The options are too large.' };
  const options = checked as SchemaFieldOptions;
  if (options.default !== undefined && options.default !== null) {
    // The default is a value of the field like any other: checked by the field's own rules.
    const spec = fieldSpecFor(
      { slug: 'default', name: 'Default', type, required: false, options, column: false },
      targets,
    );
    const parsed = fieldSchema('default', spec).safeParse(options.default);
    if (!parsed.success)
      return {
        key: 'default',
        error: `The default: ${parsed.error.issues[0]?.message ?? 'is not a value of the field.'}`,
      };
    options.default = parsed.data;
  }
  return { options };
}

/** The key of the 422 for an option that is wrong: `options.<key>`, or `options` for the whole object. */
export const optionsErrorKey = (checked: { key?: string }, prefix = 'options') =>
  checked.key ? `${prefix}.${checked.key}` : prefix;
