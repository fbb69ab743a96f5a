import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import { customIndexExpression, searchExpression } from '../records/list-query.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinDefinition } from './builtin-types.js';
import { fieldSpecFor } from './field-specs.js';
import { loadSchemas } from './schema-store.js';

const shortHash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);

function indexName(table: string, schemaId: number | null, slug: string) {
  return `${table}_cf_${schemaId ?? ''}${schemaId ? '_' : ''}${slug}`.slice(0, 50) + `_${shortHash(`${table}:${schemaId}:${slug}`)}`;
}

function target(schema: { id: number; type: string }) {
  const def = builtinDefinition(schema.type);
  return def ? { table: def.table, schemaId: null } : { table: 'custom_records', schemaId: schema.id };
}

/**
 * An expression index for one custom field, matching the SQL the list filters and sorts use (list-query.ts
 * fieldExpression), so filter and sort on custom fields stay fast: `((custom ->> 'slug'))`, cast for numbers,
 * `lower(...)` for text. Records of app-made types share `custom_records`: their indexes lead with `schema_id`.
 * Arrays (multiple choices, relations, attachments) use the GIN index on `custom` instead.
 */
export async function ensureCustomFieldIndex(db: Kysely<any>, schema: { id: number; type: string }, field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>) {
  if (field.column) return;
  const expression = customIndexExpression(field.slug, fieldSpecFor(field));
  if (!expression) return;
  const { table, schemaId } = target(schema);
  const name = indexName(table, schemaId, field.slug);
  const columns = schemaId ? sql`schema_id, (${expression})` : sql`(${expression})`;
  await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} (${columns})`.execute(db);
}

export async function dropCustomFieldIndex(db: Kysely<any>, schema: { id: number; type: string }, field: { slug: string }) {
  const { table, schemaId } = target(schema);
  await sql`drop index if exists ${sql.id(indexName(table, schemaId, field.slug))}`.execute(db);
}

/** Every custom field's index (made again if missing: a restored backup, a field added by another process). */
export async function ensureAllCustomFieldIndexes(db: Kysely<any>) {
  for (const schema of await loadSchemas(db)) {
    for (const field of schema.fields) if (!field.column) await ensureCustomFieldIndex(db, schema, field);
  }
}

export async function hasTrigram(db: Kysely<any>) {
  const row = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
  return Boolean(row.rows[0]?.ok);
}

/**
 * One trigram (GIN) index per searchable resource over exactly the expression list searches use
 * (list-query.ts searchExpression), so `search=text` (ILIKE '%text%') stays fast on large tables. Where pg_trgm
 * is not installed (some PostgreSQL servers), search still works, by scanning.
 */
export async function ensureSearchIndexes(db: Kysely<any>, definitions: readonly ResourceDefinition[]) {
  if (!(await hasTrigram(db))) return;
  const done = new Set<string>();
  for (const def of definitions) {
    if (!def.search?.length || def.scope) continue;
    const key = `${def.table}:${def.search.join(',')}`;
    if (done.has(key)) continue;
    done.add(key);
    const name = `${def.table}_search_${shortHash(key)}`;
    await sql`create index if not exists ${sql.id(name)} on ${sql.table(def.table)} using gin (${searchExpression(def.search, null)} gin_trgm_ops)`.execute(db);
  }
  await sql`create index if not exists custom_records_search_trgm on custom_records using gin (${searchExpression(['name'], null)} gin_trgm_ops)`.execute(db);
}

/**
 * The default order of each list (`created_at desc nulls last, id desc` for sites...) as an index over the live
 * rows, so the first page of a large list is read in order instead of sorting every row.
 */
export async function ensureSortIndexes(db: Kysely<any>, definitions: readonly ResourceDefinition[]) {
  const done = new Set<string>();
  for (const def of definitions) {
    const sort = def.defaultSort;
    if (!sort || def.scope || !def.softDelete || sort.field === 'id') continue;
    const isColumn = ['created_at', 'updated_at'].includes(sort.field) || (def.fields[sort.field] && (def.fields[sort.field].storage ?? 'column') === 'column');
    if (!isColumn) continue;
    const key = `${def.table}:${sort.field}:${sort.order}`;
    if (done.has(key)) continue;
    done.add(key);
    const order = sql.raw(sort.order === 'desc' ? 'desc' : 'asc');
    const name = `${def.table}_sort_${shortHash(key)}`;
    await sql`create index if not exists ${sql.id(name)} on ${sql.table(def.table)} (${sql.ref(sort.field)} ${order} nulls last, id ${order}) where deleted_at is null`.execute(db);
  }
}
