/**
 * What a field type is made of (docs/architecture.md "Field types: one module each"). Each type of SPEC section 3 is
 * one module of this folder (`text.ts`, `number.ts`, ...) and one of the client's (`client/records/fieldTypes/ui/`);
 * the registry (`../field-types.ts`) lists them. Everything the server, the importer, the exports, the history and the
 * assistant do with a field's value is asked of its module, never worked out from the type's name elsewhere.
 *
 * The modules hold their SQL (filter operators, sort key, indexes) as functions of the `sql` template tag the server
 * passes in (kysely's): the client can import a module without the database driver.
 */
import type * as z from 'zod/mini';
import type { Parsed } from '../import-values.js';

/**
 * The kinds of value the server checks and stores (`records/fields.ts` validates each kind one way). Every field of
 * every resource has one; a schema field's kind comes from its type's module and its options.
 */
export type ValueKind =
  | 'text'
  | 'email'
  | 'phone'
  | 'url'
  | 'color'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'enum[]'
  | 'integer[]'
  | 'json';

/** What a relation target holds: ids of records, or text (the distinct values of a column, e.g. site cities). */
export type RelationValue = 'id' | 'text';

export interface PivotStorage {
  pivot: string;
  ownKey: string;
  otherKey: string;
  where?: Record<string, string>;
}

/** The value must match a pattern; a zod check of any kind (`records/fields.ts`). */
export interface ValueShape {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<{ message: string }> } };
}

/**
 * One field as the server validates, stores, filters and sorts it: from a schema field (its module's `spec`) or
 * written by a resource's definition (users, roles...: then only `kind` and what it says).
 */
export interface FieldSpec {
  kind: ValueKind;
  /** The schema field type it was made from (its module); absent for fields a resource describes itself. */
  type?: string;
  /** The field in a message's sentence ("The gate code must be ..."). */
  label?: string;
  /** The field's name as people see it on screens, in lists of targets and in file headers ("Gate Code"). */
  name?: string;
  required?: boolean;
  /** Longest text (characters) or largest number. */
  max?: number;
  /** Shortest text (characters) or smallest number. */
  min?: number;
  /** Number kinds: the value is a whole number of steps (a number field's `options.step`). */
  step?: number;
  /** Allowed values for enum kinds. */
  options?: readonly string[];
  /** Enum kinds: what a person sees for each value (the schema's choice labels). */
  choiceLabels?: Readonly<Record<string, string>>;
  /**
   * Where the value lives: a real column (default), the `custom` JSONB column, a pivot table (`where`: constant
   * columns of a polymorphic pivot, e.g. `{taggable_type: 'site'}`), or `virtual`: validated and kept in the
   * revision, but written and presented by the resource's own hooks (`ctx.values` in afterWrite).
   */
  storage?: 'column' | 'custom' | 'virtual' | PivotStorage;
  /**
   * A custom field of a type made in the app: the `schema_id` of its rows in the shared `custom_records`, where other
   * types may keep another kind of value under the same key. Its value is cast on these rows only (sql.ts
   * valueExpression), in lists and in its indexes alike.
   */
  schemaId?: number;
  sortable?: boolean;
  filterable?: boolean;
  /** A custom text field `search=` looks in (its schema field's `options.searchable`), besides the type's `search` columns. */
  searchable?: boolean;
  /** Text kinds: the value must match (e.g. a slug, or the administrator's `options.pattern`). */
  pattern?: RegExp;
  patternMessage?: string;
  /** json kind: the shape the value must have (a zod schema). */
  shape?: ValueShape;
  /**
   * integer / integer[] kinds: ids of rows of this table (of its rows where `scope` holds: the records of one type
   * made in the app), checked to exist (422 'The selected ... does not exist.').
   */
  references?: { table: string; softDelete?: boolean; scope?: { column: string; value: string | number } };
  /**
   * text kind: the value must be the slug of a live row of this table (a list administrators extend, such as
   * site_types); checked on write by schema-backed resources (422 'The type must be one of: ...').
   */
  slugOf?: string;
  /** No two live records of the type hold the same value (`options.unique`): an index, and a 422 naming the holder. */
  unique?: boolean;
  /** What a record gets on create when the field is not sent (`options.default`). */
  default?: unknown;
  /** Shown, never written by people (`options.read_only`, and the computed types). */
  readOnly?: boolean;
  /** Text kinds: how a value is stored once checked (rich text without HTML tags). */
  clean?: (text: string) => string;
  /**
   * A computed field: its value is this SQL over the record as `alias` (null: the row's own columns, unqualified, as
   * an expression index holds them), never stored; lists filter, sort and show it
   * through `valueExpression`. Set by the server from the type's `compute` (formulas: schemas/field-specs.ts), or by
   * the type's `spec` (created at, updated by...: the record's own columns and the authors of its revisions).
   */
  computed?: (sql: Sql, alias: string | null) => SqlFragment;
  /**
   * `computed` could raise an error for some row (a formula too long to bound its numbers): no index is made over it,
   * since the index would make that row's write fail instead of the list's read.
   */
  unindexable?: boolean;
  /**
   * A computed value over the rows of another record type (rollup): its SQL given those rows (`rows`, a subquery),
   * and the relation target they are (`readsRows`). The record service gives each reader the rows they may read
   * (RecordService.readerFields), so no one counts a row they cannot read; `computed` reads every live row.
   */
  computedOver?: (sql: Sql, alias: string, rows: SqlFragment) => SqlFragment;
  readsRows?: NonNullable<FieldSpec['references']>;
  /**
   * Which of those rows count (a rollup's condition): a filter of the view-filter structure over their own fields,
   * compiled by the server's one filter compiler as the rows are bound to a reader.
   */
  readsRowsWhere?: Record<string, unknown>;
  /**
   * A rollup whose value is kept on each record, under its slug in `custom` (`options.kept`, set by the server): lists
   * filter and sort on the kept value through its index. RecordService writes it whenever a row it reads changes
   * (records/kept-rollups.ts), with `keptBy`.
   */
  kept?: boolean;
  /** How the record service finds the records whose kept value a write changes (a rollup: FieldSpec `kept`). */
  keptBy?: KeptBy;
  /**
   * A formula that moves with one stored date (`DAYS(TODAY(), {Start date})`, `DAYS({Start date}, DATE(2024, 1, 1))`):
   * lists sort by that date's own key (reversed when the value falls as the date rises) and its comparisons become a
   * range of that date, which the date's index serves (field-types/formula-days.ts).
   */
  movesWith?: MovesWith;
}

/** The related rows of a kept rollup: how they join its records, and which of their fields move its value. */
export interface KeptBy {
  /** The related row `r` belongs to the record `alias` (the rollup's own join). */
  join: (sql: Sql, alias: string) => SqlFragment;
  /** The relation joining them: a field of the related type (`to-this`) or of the record's own type (`through`). */
  direction: 'to-this' | 'through';
  link: string;
  /** The related type's fields a change of which moves the value (the link, the aggregated field, the condition's). */
  reads: readonly string[];
}

/** An opaque piece of SQL (kysely's RawBuilder on the server). */
export interface SqlFragment {
  readonly isRawBuilder: true;
}

/** The `sql` template tag the server passes in (kysely's): values are bound parameters, `lit` writes a literal. */
export interface Sql {
  (strings: TemplateStringsArray, ...values: unknown[]): SqlFragment;
  lit(value: string | number | boolean | null): SqlFragment;
  ref(reference: string): SqlFragment;
  table(name: string): SqlFragment;
  join(items: readonly unknown[], separator?: SqlFragment): SqlFragment;
  raw(text: string): SqlFragment;
}

/** What a filter operator's SQL is given: the field, where its record is (`alias`), and the value asked for. */
export interface FilterArgs {
  sql: Sql;
  /** The field's key: its column, or its key in `custom`. */
  field: string;
  spec: FieldSpec;
  value: unknown;
  /** The record's table alias in the query (`t`). */
  alias: string;
  /** The person asking (`me` in a person filter). */
  userId?: number | null;
  /** The moment relative dates (`today`, `this_month`) are read at; now when absent. */
  now?: Date;
  /** The organization's time zone, where days start for relative dates (`TIME_ZONE`); UTC when absent. */
  timeZone?: string;
}

/**
 * A filter operator of a field type: its name in the list query (`filter[slug_gte]` is `gte`), what it takes, its
 * words, and its condition in SQL. The list query, saved views and access rules all call it.
 */
export interface FilterOperator {
  /** How people read it ("is at least"). */
  label: string;
  /**
   * What it compares with: one value of the field, a list of them, yes/no (`_null`), nothing (`empty`), two values
   * (`between`), a relative date (`date`: `this_month`, `{"last_days": 30}`).
   */
  takes: 'one' | 'list' | 'flag' | 'none' | 'pair' | 'relative-date';
  /** Whether it means something for this field (a relative date for dates, "has any" for links); absent: every field. */
  applies?(spec: FieldSpec): boolean;
  sql(args: FilterArgs): SqlFragment;
}

/** The operators of a field type, by their name in the list query: `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `like`, `null`, `in`... */
export type FilterOperators = Readonly<Record<string, FilterOperator>>;

/** How a list orders by a field of the type: the key (`null`: it does not sort), and the index that serves it. */
export interface FieldSort {
  key(args: Omit<FilterArgs, 'value'>): SqlFragment | null;
  /** The key of the index a sort needs (the key without the table's alias), or null when no plain index serves it. */
  index(args: Omit<FilterArgs, 'value' | 'alias'>): SqlFragment | null;
}

/** How a custom field of the type is indexed for its filters (the key, without alias), or null: the GIN index on `custom`. */
export type FilterIndex = (args: Omit<FilterArgs, 'value' | 'alias'>) => SqlFragment | null;

/** What an export writes for a value: as stored, Yes / No, the labels of choices, or the names of related records. */
export type ExportCell = 'value' | 'yes-no' | 'choice-labels' | 'names';

/** The validation options an administrator may set on a field (the field dialog offers those its type lists). */
export const VALIDATION_OPTIONS = [
  'required',
  /** `options.pattern` with the administrator's `options.pattern_message`. */
  'pattern',
  'unique',
  'default',
  /** A number's smallest and largest (`options.min`, `options.max`). */
  'range',
  /** A text's shortest and longest, in characters (`options.min`, `options.max`). */
  'length',
  'read_only',
] as const;
export type ValidationOption = (typeof VALIDATION_OPTIONS)[number];

/** What a type's module is told about the field it describes, besides its options. */
export interface SpecContext {
  /** The field's label in a sentence ("gate code"). */
  label: string;
  /** What the relation's `options.target` points at (relation types), when known. */
  target?: { value: RelationValue; references: FieldSpec['references'] | null };
  /** A built-in column (true) or a key of `custom`. */
  column: boolean;
  /** The record type the field belongs to (`inspection`), when known: the revisions of its records are kept under it. */
  recordType?: string;
}

/** Another field of the same record type, as a computed field's checks and SQL see it. */
export interface SiblingField {
  slug: string;
  name: string;
  type: string;
  options: Record<string, unknown>;
  spec: FieldSpec;
}

/**
 * What checking a field's options is told: the relation targets there are, by key; the field's slug and the fields of
 * its record type (with it as it will be), which a formula names.
 */
export interface OptionsContext {
  targets: Readonly<Record<string, { value: RelationValue }>>;
  self?: string;
  fields?: readonly SiblingField[];
  /** The record type of the field, and the fields of another record type (a rollup reads them). */
  type?: string;
  typeFields?: (type: string) => readonly SiblingField[] | undefined;
  /**
   * What is wrong with a condition over records of these fields (a filter of the view-filter structure), or null:
   * the server's one filter compiler checks it (a rollup's `where`).
   */
  checkCondition?: (condition: unknown, fields: readonly SiblingField[]) => string | null;
}

/** What a computed type works its SQL out from: the fields of its own type, and those of the others. */
export interface ComputeContext {
  self: string;
  fields: readonly SiblingField[];
  type?: string;
  typeFields?: (type: string) => readonly SiblingField[] | undefined;
  /** The rows of a record type, as a relation to it references them. */
  typeRows?: (type: string) => FieldSpec['references'] | null;
}

/**
 * How a computed number moves with one stored date field `field` (its `spec`): the days from `origin` (a date that
 * reads no field, such as TODAY()) to the date, when `rising`; else the days from the date to `origin`.
 */
export interface MovesWith {
  field: string;
  spec: FieldSpec;
  rising: boolean;
  origin(sql: Sql): SqlFragment;
}

/** An option that is not right: the option's key (`options.<key>` in the 422) and why. */
export class OptionProblem {
  constructor(
    readonly key: string,
    readonly message: string,
  ) {}
}

export interface FieldTypeModule<O extends Record<string, unknown> = Record<string, unknown>> {
  /** The type's name in schemas (`text`, `estimated-hours`). */
  type: string;
  /** Its name in the schema editor. */
  label: string;
  /** Its options: a strict zod schema (an unknown key or a bad value answers 422 naming `options.<key>`). */
  options: z.ZodMiniType<O>;
  /** Checks of the options that need more than their shape (a relation's target exists); normalises them. */
  checkOptions(options: O, context: OptionsContext): OptionProblem | O;
  /** The validation options it offers with these options (the field dialog shows those). */
  validation(options: O): readonly ValidationOption[];
  /** Storage: the kind of value a field of this type with these options holds. */
  kind(options: O, target?: RelationValue): ValueKind;
  /** Validation: what the server checks beyond the kind (limits, pattern, shape, records that must exist). */
  spec(options: O, context: SpecContext): Partial<FieldSpec>;
  /** Import: a file's cell as a value of the field (checked afterwards like any value). */
  fromCell(cell: string, spec: FieldSpec): Parsed<unknown>;
  /** Export: how a file shows the value. */
  toCell: ExportCell;
  /** Filters: the operators a list, a view or an access rule can use on it, with their SQL. */
  filters: FilterOperators;
  /** Sorts: its key and index; null: a list cannot sort by it. */
  sort: FieldSort | null;
  /** The expression index of a custom field for its filters. */
  filterIndex: FilterIndex;
  /** History and the assistant: a value in words ("Yes", a choice's label, "3 of 5"). */
  words(value: unknown, options: O): string;
  /** Text search may look in it (`options.searchable`, a trigram index). */
  textual: boolean;
  /** Reports can group records by its values (choices). */
  groupable: boolean;
  /** Computed types (formula): the SQL of the value from the other fields of the type (FieldSpec `computed`). */
  compute?(
    options: O,
    context: ComputeContext,
  ): Pick<
    FieldSpec,
    'computed' | 'unindexable' | 'computedOver' | 'readsRows' | 'readsRowsWhere' | 'keptBy' | 'movesWith'
  >;
}

/** A module with its options' type checked against its schema. */
export function defineFieldType<O extends Record<string, unknown>>(module: FieldTypeModule<O>): FieldTypeModule<O> {
  return module;
}
