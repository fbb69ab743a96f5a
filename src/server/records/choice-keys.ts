import type { Kysely } from 'kysely';
import { SLUG } from '../../common/field-types/slug.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { KeptByStamp, tableStampOf } from '../db/write-tracking.js';
import { cachedRead } from './batch-reads.js';
import type { ListQuery } from './list-query.js';
import type { FieldSpec } from './resource.js';

/** Lists' slugs kept per embedded database until their table is written (db/write-tracking.ts tableStampOf). */
const keptSlugs = new WeakMap<object, Map<string, KeptByStamp<readonly string[]>>>();

/**
 * The slugs of the live rows of a list administrators extend (site types, contact statuses...), in their order. Each
 * write that names one (a conversation's outcome and assessment) checks it against them, so on the embedded database
 * they are kept until the list is written; elsewhere they are read once per batch.
 */
export function liveSlugs(db: Kysely<DB>, table: string): Promise<readonly string[]> {
  return cachedRead(db, `slugs:${table}`, () => {
    const stamp = tableStampOf(db, table);
    if (stamp === null) return readSlugs(db, table);
    const adapter = db.getExecutor().adapter;
    let lists = keptSlugs.get(adapter);
    if (!lists) keptSlugs.set(adapter, (lists = new Map()));
    let kept = lists.get(table);
    if (!kept) lists.set(table, (kept = new KeptByStamp()));
    return kept.get(stamp, () => readSlugs(db, table));
  });
}

async function readSlugs(db: Kysely<DB>, table: string): Promise<readonly string[]> {
  const rows = await dynamicTables(db)
    .selectFrom(table)
    .select('slug')
    .where('deleted_at', 'is', null)
    .where('slug', 'is not', null)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.slug as string);
}

const KEYED_OPERATORS = new Set(['eq', 'neq', 'in']);

/**
 * Filters on choice fields (a field's choices, or the slugs of a list such as site types) with the value people sent
 * turned into the stored key when it differs only in case ('Union' -> 'union'), so that the SQL compares the column
 * exactly and the column's index serves it (list-query.ts filterCondition). A value that is no key stays as sent and
 * finds nothing.
 */
export async function withChoiceKeys(
  db: Kysely<DB>,
  filters: ListQuery['filters'],
  fields: Record<string, FieldSpec>,
): Promise<ListQuery['filters']> {
  return Promise.all(
    filters.map(async (filter) => {
      const spec = fields[filter.field];
      if (!spec || !KEYED_OPERATORS.has(filter.operator) || typeof spec.storage === 'object') return filter;
      // A list's keys are slugs (lower case, SLUG): a value in that form is a key as sent, or none, without
      // reading the list (a query less for the common filter, as the generated lists send it).
      if (
        spec.slugOf &&
        (Array.isArray(filter.value) ? filter.value : [filter.value]).every(
          (value) => typeof value === 'string' && SLUG.test(value),
        )
      )
        return filter;
      const keys = spec.slugOf
        ? await liveSlugs(db, spec.slugOf)
        : spec.kind === 'enum' || spec.kind === 'enum[]'
          ? spec.options
          : undefined;
      if (!keys?.length) return filter;
      const exact = new Set(keys);
      const byFolded = new Map(keys.map((key) => [key.toLowerCase(), key]));
      const keyOf = (value: unknown) =>
        typeof value === 'string' && !exact.has(value) ? (byFolded.get(value.toLowerCase()) ?? value) : value;
      return { ...filter, value: Array.isArray(filter.value) ? filter.value.map(keyOf) : keyOf(filter.value) };
    }),
  );
}
