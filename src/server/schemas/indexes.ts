import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import {
  customIndexExpression,
  fieldExpression,
  searchExpression,
  sortIndexExpression,
} from '../records/list-query.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { uniqueIndexExpression } from '../records/unique-values.js';
import { builtinDefinition } from './builtin-types.js';
import { storedFields } from './computed-dependents.js';
import { type FieldOfType, fieldSpecFor, withComputedValues } from './field-specs.js';
import { knownRelationTargets } from './schema-files.js';
import { loadSchemas } from './schema-store.js';

const shortHash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);

/** The start of the names of a field's indexes: what names them for people; a hash of what tells them apart ends them. */
const namePrefix = (table: string, schemaId: number | null, slug: string) =>
  `${table}_cf_${schemaId ?? ''}${schemaId ? '_' : ''}${slug}`.slice(0, 50) + '_';

function indexName(table: string, schemaId: number | null, slug: string, version = '') {
  return namePrefix(table, schemaId, slug) + shortHash(`${table}:${schemaId}:${slug}${version}`);
}

/**
 * What a sort index's key holds beside the field: a dropdown sorts by the rank of its choices (list-query.ts
 * sortExpression), so its index is another one, under another name, once the choices change; '' for other fields.
 */
export function sortKeyVersion(spec: FieldSpec) {
  return spec.kind === 'enum' && spec.options?.length ? `:${shortHash(JSON.stringify(spec.options))}` : '';
}

const searchIndexName = (table: string, schemaId: number | null, slug: string) =>
  indexName(table, schemaId, `${slug}_trgm`);
const sortIndexName = (table: string, schemaId: number | null, slug: string, spec: FieldSpec) =>
  indexName(table, schemaId, `${slug}_sort`, sortKeyVersion(spec));

/**
 * Drops the sort indexes of a custom field other than `keep` (the rank index of choices since changed, or of a kind
 * of value the field no longer holds). Told apart from another field's whose name starts the same (a long slug cut
 * short) by the key they index.
 */
async function dropOtherSortIndexes(
  db: Kysely<DB>,
  table: string,
  schemaId: number | null,
  slug: string,
  keep: string | null,
) {
  const prefix = namePrefix(table, schemaId, `${slug}_sort`);
  await dropIndexesStarting(db, table, prefix, new Set(keep ? [keep] : []), `->> '${slug}'::text)`);
}

/**
 * Drops the indexes of `table` whose name starts with `prefix`, other than `keep`, and whose definition holds `holding`
 * ('' for any): a field's indexes of an earlier shape, told apart from another field's by what they index.
 */
async function dropIndexesStarting(
  db: Kysely<DB>,
  table: string,
  prefix: string,
  keep: ReadonlySet<string>,
  holding: string,
) {
  const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${table} and left(indexname, ${prefix.length}) = ${prefix} and position(${holding} in indexdef) > 0`.execute(
    db,
  );
  for (const { name } of rows) if (!keep.has(name)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

/** The table a schema's records live in, the schema they are scoped to (types made in the app), and whether rows are soft-deleted. */
export function target(schema: { id: number; type: string }) {
  const def = builtinDefinition(schema.type);
  // Records of app-made types are soft-deleted rows of custom_records.
  return def
    ? { table: def.table, schemaId: null, softDelete: def.softDelete }
    : { table: 'custom_records', schemaId: schema.id, softDelete: true };
}

/** A field's spec as its type's rows hold it: on custom_records, cast on its own schema's rows only (FieldSpec.schemaId). */
const specOf = (
  schemaId: number | null,
  field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>,
) => fieldSpecFor(field, knownRelationTargets(), undefined, schemaId);

/**
 * An expression index for one custom field, matching the SQL the list filters and sorts use (list-query.ts
 * fieldExpression), so filter and sort on custom fields stay fast: `((custom ->> 'slug'))`, cast for numbers,
 * `lower(...)` for text. Records of app-made types share `custom_records`: their indexes lead with `schema_id`.
 * Arrays (multiple choices, relations, attachments) use the GIN index on `custom` instead.
 *
 * On soft-deleting tables the index ends with `deleted_at`, so the `deleted_at is null` of every live read is
 * answered by the index too: counting the rows of a filter (the exact `total` of a list page) then only checks
 * each row's visibility instead of also reading its `deleted_at`, which sits behind the row's other columns
 * (docs/benchmarks.md, Records). Not a partial index: PostgreSQL keeps statistics for the expression of a full
 * index only, and without them the planner takes a filter on a common value for a rare one.
 * A field a list can sort by through an index (list-query.ts sortIndexExpression: not long text; choices by rank) also
 * gets the index of that sort, `(key, id, deleted_at)` (see ensureSortIndexes), not partial either, for the same
 * reason.
 * A formula gets one index over its compiled SQL (ensureFormulaIndexes); `fields`: its type's fields, which it reads
 * (loaded when not given).
 * Returns whether the field has such an index.
 */
export async function ensureCustomFieldIndex(
  db: Kysely<DB>,
  schema: { id: number; type: string },
  field: FieldOfType,
  fields?: readonly FieldOfType[],
) {
  if (field.column) return false;
  const { table, schemaId, softDelete } = target(schema);
  if (field.type === 'formula') {
    const spec = formulaSpec(schemaId, field, fields ?? (await storedFields(db, schema.id)));
    return Boolean(await ensureFormulaIndexes(db, { table, schemaId, softDelete }, field.slug, spec));
  }
  const spec = specOf(schemaId, field);
  const expression = customIndexExpression(field.slug, spec);
  if (!expression) return false;
  const name = indexName(table, schemaId, field.slug);
  const columns = [
    ...(schemaId ? [sql`schema_id`] : []),
    sql`(${expression})`,
    ...(softDelete ? [sql`deleted_at`] : []),
  ];
  await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} (${sql.join(columns)})`.execute(db);
  await ensureFieldSearchIndex(db, table, searchIndexName(table, schemaId, field.slug), field.slug, spec);
  const sortKey = sortIndexExpression(field.slug, spec);
  const sortName = sortKey ? sortIndexName(table, schemaId, field.slug, spec) : null;
  if (sortKey && sortName) {
    const sorted = [
      ...(schemaId ? [sql`schema_id`] : []),
      sql`(${sortKey}) asc nulls last`,
      sql`id`,
      ...(softDelete ? [sql`deleted_at`] : []),
    ];
    await sql`create index if not exists ${sql.id(sortName)} on ${sql.table(table)} (${sql.join(sorted)})`.execute(db);
  }
  if (sortKeyVersion(spec) || !sortKey) await dropOtherSortIndexes(db, table, schemaId, field.slug, sortName);
  const choices = choiceIndexes(table, schemaId, softDelete, field.slug, spec);
  for (const index of choices) await buildIndex(db, index);
  await dropOtherChoiceIndexes(db, table, schemaId, field.slug, new Set(choices.map((index) => index.name)));
  await ensureUniqueIndex(db, schema, field);
  return true;
}

/** A formula's spec with its SQL, worked out from the fields of its type (`all`), which it reads. */
const formulaSpec = (schemaId: number | null, field: FieldOfType, all: readonly FieldOfType[]) =>
  withComputedValues({ [field.slug]: specOf(schemaId, field) }, all, knownRelationTargets(), undefined, schemaId)[
    field.slug
  ];

const formulaIndexPrefix = (table: string, schemaId: number | null, slug: string) =>
  namePrefix(table, schemaId, `${slug}_fx`);

/**
 * A formula's index `(schema_id, (formula) asc nulls last, id, deleted_at)`, the shape of a stored field's sort index
 * (ensureCustomFieldIndex), over its SQL from the one compiler without the table's alias (common/field-types/formula.ts
 * formulaIndex): the lists' filters on it and sorts by it are that expression, and the planner reads this one index for
 * both (a second, filter-only index like a stored field's would only cost every write to custom_records). Its name
 * ends with a hash of the SQL, so a changed formula (or a change of a field it reads that changes its SQL) gets a new
 * one and the other is dropped. PostgreSQL indexes only an immutable expression: a formula using TODAY() is refused
 * with 42P17 and lists work it out on every row as before; one with a text constant (a bound parameter), or too long
 * to bound its numbers (FieldSpec `unindexable`), is not tried. Returns 'made' (it was missing:
 * `existing`, the current index names, when known), 'kept', or false when the formula has none.
 */
async function ensureFormulaIndexes(
  db: Kysely<DB>,
  where: { table: string; schemaId: number | null; softDelete: boolean },
  slug: string,
  spec: FieldSpec,
  existing?: ReadonlySet<string>,
): Promise<'made' | 'kept' | false> {
  const { table, schemaId, softDelete } = where;
  const expression = customIndexExpression(slug, spec);
  const compiled = expression ? sql`${expression}`.compile(db) : null;
  if (!expression || !compiled || compiled.parameters.length) {
    await dropOtherFormulaIndexes(db, table, schemaId, slug, new Set());
    return false;
  }
  const version = `:${shortHash(compiled.sql)}`;
  const name = indexName(table, schemaId, `${slug}_fx`, version);
  if (existing?.has(name)) return 'kept';
  const columns = [
    ...(schemaId ? [sql`schema_id`] : []),
    sql`(${expression}) asc nulls last`,
    sql`id`,
    ...(softDelete ? [sql`deleted_at`] : []),
  ];
  try {
    await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} (${sql.join(columns)})`.execute(db);
  } catch (error) {
    // Not immutable; too large a definition for PostgreSQL's catalog (class 54, "row is too big": an index's
    // expression is kept in one 8 kB row); or a row the formula cannot read (a data exception, class 22: its guarded
    // SQL should never raise, but a start-up must not fail on one row). Lists work it out on every row instead.
    const code = (error as { code?: string }).code ?? '';
    if (code !== NOT_IMMUTABLE && !code.startsWith('22') && !code.startsWith('54')) throw error;
    await dropOtherFormulaIndexes(db, table, schemaId, slug, new Set());
    return false;
  }
  await dropOtherFormulaIndexes(db, table, schemaId, slug, new Set([name]));
  return 'made';
}

/** PostgreSQL's error for an index over an expression that is not immutable (`now()`, `text::date`). */
const NOT_IMMUTABLE = '42P17';

/** Drops a formula's indexes other than `keep` (those of its earlier SQL, or all of them once it has none). */
async function dropOtherFormulaIndexes(
  db: Kysely<DB>,
  table: string,
  schemaId: number | null,
  slug: string,
  keep: ReadonlySet<string>,
) {
  await dropIndexesStarting(db, table, formulaIndexPrefix(table, schemaId, slug), keep, '');
}

/**
 * The indexes of every formula of a type made again where their SQL changed: after a change to any field of the type
 * (a formula reads the others, and formulas that use it hold its SQL).
 */
export async function ensureFormulaIndexesOf(db: Kysely<DB>, schema: { id: number; type: string }) {
  const fields = await storedFields(db, schema.id);
  for (const field of fields)
    if (field.type === 'formula' && !field.column) await ensureCustomFieldIndex(db, schema, field, fields);
}

const uniqueIndexName = (table: string, schemaId: number | null, slug: string) =>
  indexName(table, schemaId, `${slug}_uq`);

/**
 * A unique field's index (`options.unique`), built-in column or custom key: the value as the write paths compare it
 * (records/unique-values.ts: text without case), over the live records of the type, so two writes of one value at
 * the same moment cannot both pass. Dropped when the field is no longer unique. Made after the field's save, which
 * refused to mark it unique while records shared a value (schema-fields-resource.ts).
 */
export async function ensureUniqueIndex(
  db: Kysely<DB>,
  schema: { id: number; type: string },
  field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>,
) {
  const { table, schemaId, softDelete } = target(schema);
  const name = uniqueIndexName(table, schemaId, field.slug);
  const spec = specOf(schemaId, field);
  const key = spec.unique ? uniqueIndexExpression(field.slug, spec) : null;
  if (!key) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
    return;
  }
  const columns = [...(schemaId ? [sql`schema_id`] : []), sql`(${key})`];
  const live = softDelete ? sql` where deleted_at is null` : sql``;
  await sql`create unique index if not exists ${sql.id(name)} on ${sql.table(table)} (${sql.join(columns)})${live}`.execute(
    db,
  );
}

/** Dropdowns with up to this many choices get an index per choice (choiceIndexes). */
const MAX_CHOICE_INDEXES = 12;

const choiceIndexPrefix = (table: string, schemaId: number | null, slug: string) =>
  namePrefix(table, schemaId, `${slug}_is`);

/**
 * For each choice of a dropdown (or radio buttons) with up to MAX_CHOICE_INDEXES choices, the ids of the live records
 * holding it: a partial index, whose condition is the list's filter on that choice (list-query.ts filterCondition
 * 'eq'). PostgreSQL answers nothing from an expression index alone: counting the matches of a choice through
 * `((custom ->> 'slug'), deleted_at)` read each match's row, 12 ms on PostgreSQL and 16 ms on the embedded database
 * for a choice 33,000 of 100,000 sites hold, against 1.6 and 3 ms from this index alone (docs/benchmarks.md
 * "Records"). A list filtered on the choice and sorted by the field (in id order, sortKeyPinned) reads its page
 * here too. The planner uses it when it plans for the filter's value, as it does for a statement run once.
 */
function choiceIndexes(
  table: string,
  schemaId: number | null,
  softDelete: boolean,
  slug: string,
  spec: FieldSpec,
): IndexDescription[] {
  if (
    spec.storage !== 'custom' ||
    spec.kind !== 'enum' ||
    !spec.options?.length ||
    spec.options.length > MAX_CHOICE_INDEXES
  )
    return [];
  const value = fieldExpression(slug, spec, null);
  return spec.options.map((choice) => {
    const conditions = [
      ...(schemaId ? [sql`schema_id = ${sql.lit(schemaId)}`] : []),
      ...(softDelete ? [sql`deleted_at is null`] : []),
      sql`${value} = ${sql.lit(choice)}`,
    ];
    return {
      name: choiceIndexPrefix(table, schemaId, slug) + shortHash(`${table}:${schemaId}:${slug}:${choice}`),
      table,
      body: sql`(id) where ${sql.join(conditions, sql` and `)}`,
    };
  });
}

/**
 * Drops the choice indexes of a field other than `keep` (choices since removed, or every one once the field has too
 * many or holds another kind of value). Told apart from another field's whose name starts the same by their condition.
 */
async function dropOtherChoiceIndexes(
  db: Kysely<DB>,
  table: string,
  schemaId: number | null,
  slug: string,
  keep: ReadonlySet<string>,
) {
  await dropIndexesStarting(db, table, choiceIndexPrefix(table, schemaId, slug), keep, `->> '${slug}'::text) = `);
}

/**
 * A searchable custom field's trigram index, over the expression `search=` matches (list-query.ts searchCondition):
 * `ilike '%text%'` on it stays fast. Made when the field is marked searchable, dropped when it no longer is.
 */
async function ensureFieldSearchIndex(
  db: Kysely<DB>,
  table: string,
  name: string,
  slug: string,
  spec: ReturnType<typeof fieldSpecFor>,
) {
  if (!spec.searchable) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
    return;
  }
  if (!(await hasTrigram(db))) return;
  await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} using gin ((${fieldExpression(slug, spec, null)}) gin_trgm_ops) with (gin_pending_list_limit = ${sql.lit(GIN_PENDING_LIST_KB)})`.execute(
    db,
  );
}

/** The index names of the current schema, read once so that the checks made at every start cost one query. */
async function indexNames(db: Kysely<DB>) {
  const { rows } = await sql<{
    name: string;
  }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(db);
  return new Set(rows.map((row) => row.name));
}

export async function dropCustomFieldIndex(
  db: Kysely<DB>,
  schema: { id: number; type: string },
  field: { slug: string },
) {
  const { table, schemaId } = target(schema);
  await sql`drop index if exists ${sql.id(indexName(table, schemaId, field.slug))}`.execute(db);
  await sql`drop index if exists ${sql.id(searchIndexName(table, schemaId, field.slug))}`.execute(db);
  await sql`drop index if exists ${sql.id(uniqueIndexName(table, schemaId, field.slug))}`.execute(db);
  await dropOtherSortIndexes(db, table, schemaId, field.slug, null);
  await dropOtherChoiceIndexes(db, table, schemaId, field.slug, new Set());
  await dropOtherFormulaIndexes(db, table, schemaId, field.slug, new Set());
}

/**
 * Every custom field's index (made again if missing: a restored backup, a field added by another process, an index
 * of an earlier shape dropped by a migration). A table that got one is analyzed at once: the planner's statistics
 * of an indexed expression are gathered by ANALYZE only, and until then it takes every value for a rare one.
 */
export async function ensureAllCustomFieldIndexes(db: Kysely<DB>) {
  const existing = await indexNames(db);
  const analyze = new Set<string>();
  for (const schema of await loadSchemas(db)) {
    const { table, schemaId, softDelete } = target(schema);
    for (const field of schema.fields) {
      const spec = specOf(schemaId, field);
      if (spec.unique && !existing.has(uniqueIndexName(table, schemaId, field.slug)))
        await ensureUniqueIndex(db, schema, field);
      if (field.column) continue;
      if (field.type === 'formula') {
        const formula = formulaSpec(schemaId, field, schema.fields);
        if ((await ensureFormulaIndexes(db, { table, schemaId, softDelete }, field.slug, formula, existing)) === 'made')
          analyze.add(table);
        continue;
      }
      const sorted = sortIndexExpression(field.slug, spec) !== null;
      const choices = choiceIndexes(table, schemaId, softDelete, field.slug, spec);
      const complete =
        existing.has(indexName(table, schemaId, field.slug)) &&
        (!sorted || existing.has(sortIndexName(table, schemaId, field.slug, spec))) &&
        choices.every((index) => existing.has(index.name));
      if (complete) continue;
      if (await ensureCustomFieldIndex(db, schema, field)) analyze.add(table);
    }
  }
  for (const table of analyze) await sql`analyze ${sql.table(table)}`.execute(db);
}

export async function hasTrigram(db: Kysely<DB>) {
  const row = await sql<{
    ok: boolean;
  }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
  return Boolean(row.rows[0]?.ok);
}

/**
 * The pending list of a GIN index (rows written since it was last merged, kept unsorted so writes stay cheap) is
 * read in full by every search that uses the index. It is merged when it outgrows this size or by VACUUM, which the
 * embedded database runs at most once a minute (db/embedded-maintenance.ts): at PostgreSQL's default of 4 MB a search
 * on 100,000 sites read about 300 such pages each time after a large import (docs/benchmarks.md, Records). In kB; migration 007 sets it on the GIN indexes made before.
 */
export const GIN_PENDING_LIST_KB = 256;

/**
 * One trigram (GIN) index per searchable resource over exactly the expression list searches use
 * (list-query.ts searchExpression), so `search=text` (ILIKE '%text%') stays fast on large tables. Where pg_trgm
 * is not installed (some PostgreSQL servers), search still works, by scanning.
 */
export async function ensureSearchIndexes(db: Kysely<DB>, definitions: readonly ResourceDefinition[]) {
  if (!(await hasTrigram(db))) return;
  const existing = await indexNames(db);
  for (const index of searchIndexes(definitions)) {
    if (existing.has(index.name)) continue;
    existing.add(index.name);
    await buildIndex(db, index);
  }
}

/** An index this file makes and may make again: its name, table and what `create index` needs after `on table`. */
export interface IndexDescription {
  name: string;
  table: string;
  body: RawBuilder<unknown>;
  /** A trigram index: made only where pg_trgm is installed. */
  trigram?: boolean;
}

/** Makes an index if it is missing. */
export async function buildIndex(db: Kysely<DB>, index: IndexDescription) {
  await sql`create index if not exists ${sql.id(index.name)} on ${sql.table(index.table)} ${index.body}`.execute(db);
}

function searchIndexes(definitions: readonly ResourceDefinition[]): IndexDescription[] {
  const describe = (name: string, table: string, columns: readonly string[]) => ({
    name,
    table,
    trigram: true,
    body: sql`using gin (${searchExpression(columns, null)} gin_trgm_ops) with (gin_pending_list_limit = ${sql.lit(GIN_PENDING_LIST_KB)})`,
  });
  const seen = new Set<string>();
  const found: IndexDescription[] = [];
  for (const def of definitions) {
    if (!def.search?.length || def.scope) continue;
    const name = `${def.table}_search_${shortHash(`${def.table}:${def.search.join(',')}`)}`;
    if (!seen.has(name)) found.push(describe(name, def.table, def.search));
    seen.add(name);
  }
  found.push(describe('custom_records_search_trgm', 'custom_records', ['name']));
  return found;
}

/**
 * Which columns get a sort index. Every sortable column of a generated list (a record type with a schema, whose list
 * any column sorts), except ids of related records (they sort by id, not by what people read) and yes/no values;
 * only the default order and the name of the other resources (reference lists, settings: short tables). Each index
 * costs every write and the planning of every query on its table.
 */
function sortedByIndex(def: ResourceDefinition, field: string, spec: FieldSpec) {
  if (!def.customFields) return field === def.defaultSort?.field || field === 'name';
  return !spec.references && spec.kind !== 'boolean';
}

/**
 * The index each sortable column of a list needs, `(key asc nulls last, id asc)` over the live rows, with the key
 * as the list sorts by it (list-query.ts sortIndexExpression: `lower(name)` for text): list-query.ts pageInParts
 * reads it forwards for an ascending sort and backwards for a descending one, so the first pages of a large list,
 * filtered or not, are read in order instead of sorting every matching row. Sort indexes of a table that no column
 * needs any more (another shape, a column no longer sortable) are dropped. Records of app-made types
 * (custom_records, sorted by name by default) get one index led by `schema_id` for all of them; their custom fields
 * get theirs with their other indexes (ensureCustomFieldIndex).
 */
export async function ensureSortIndexes(db: Kysely<DB>, definitions: readonly ResourceDefinition[]) {
  const existing = await indexNames(db);
  const wanted = sortIndexes(definitions);
  const names = new Set(wanted.map((index) => index.name));
  const tables = new Set(definitions.filter((def) => !def.scope && def.softDelete).map((def) => def.table));
  for (const name of [...existing]) {
    const table = [...tables].find((t) => name.startsWith(`${t}_sort_`));
    if (!table || names.has(name)) continue;
    existing.delete(name);
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
  for (const index of wanted) {
    if (existing.has(index.name)) continue;
    existing.add(index.name);
    await buildIndex(db, index);
  }
}

/** The sort indexes ensureSortIndexes keeps, each table's together (two resources may list one table). */
function sortIndexes(definitions: readonly ResourceDefinition[]): IndexDescription[] {
  const describe = (
    table: string,
    leading: string[],
    field: string,
    key: unknown,
    caseless: boolean,
    version = '',
  ): IndexDescription => ({
    name: `${table}_sort_${shortHash(`${table}:${[...leading, field].join(',')}:asc${caseless ? ':lower' : ''}${version}`)}`,
    table,
    body: sql`(${sql.join([...leading.map((column) => sql.ref(column)), sql`(${key}) asc nulls last`, sql`id asc`])}) where deleted_at is null`,
  });
  const COMMON: Record<string, FieldSpec> = { created_at: { kind: 'datetime' }, updated_at: { kind: 'datetime' } };
  const byName = new Map<string, IndexDescription>();
  for (const def of definitions) {
    if (def.scope || !def.softDelete) continue;
    for (const [field, spec] of Object.entries({ ...COMMON, ...def.fields })) {
      if ((spec.storage ?? 'column') !== 'column' || !sortedByIndex(def, field, spec)) continue;
      const key = sortIndexExpression(field, spec);
      if (!key) continue;
      const index = describe(
        def.table,
        [],
        field,
        key,
        spec.kind === 'text' || spec.kind === 'email',
        sortKeyVersion(spec),
      );
      if (!byName.has(index.name)) byName.set(index.name, index);
    }
  }
  const found = [...byName.values()].sort((a, b) => a.table.localeCompare(b.table));
  found.push(describe('custom_records', ['schema_id'], 'name', sql`lower((${sql.ref('name')})::text)`, true));
  return found;
}

/**
 * The indexes of `table` that a large import leaves out while it writes and makes again at its end
 * (imports/deferred-indexes.ts): its sort indexes and its search index, which list reads can do without (they sort
 * or scan instead) and which cost a written row the most (docs/benchmarks.md "Imports"). Not the indexes that keys,
 * filters and uniqueness need.
 */
export function deferrableIndexes(definitions: readonly ResourceDefinition[], table: string): IndexDescription[] {
  return [...sortIndexes(definitions), ...searchIndexes(definitions)].filter((index) => index.table === table);
}

/** Which of `names` the current schema lacks, or holds only as an invalid index (a concurrent build that failed). */
export async function missingIndexes(db: Kysely<DB>, names: readonly string[]) {
  if (!names.length) return new Set<string>();
  const { rows } = await sql<{
    name: string;
  }>`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relnamespace = current_schema()::regnamespace and i.indisvalid and c.relname = any(${sql.val(names)}::text[])`.execute(
    db,
  );
  const valid = new Set(rows.map((row) => row.name));
  return new Set(names.filter((name) => !valid.has(name)));
}
