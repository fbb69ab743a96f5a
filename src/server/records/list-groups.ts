import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { type countMatches, fieldExpression, resolveField } from './list-query.js';
import type { FieldSpec } from './resource.js';

/** One group of a list: the grouping field's value, how many rows hold it, and the sums of the number fields. */
/** A list's rows as `t` (RecordService.visibleRows with the list's filters). */
type ListRows = Parameters<typeof countMatches>[1];

export interface ListGroup {
  value: unknown;
  count: number;
  sums: Record<string, number>;
}

/** The fields whose values a group adds up: numbers (money too) kept on the row, not links to other records. */
export function summableFields(fields: Record<string, FieldSpec>): string[] {
  return Object.entries(fields)
    .filter(
      ([, spec]) =>
        (spec.kind === 'integer' || spec.kind === 'number') &&
        !spec.references &&
        typeof spec.storage !== 'object' &&
        spec.type !== 'autonumber',
    )
    .map(([slug]) => slug);
}

/**
 * The rows of `base` (a list's rows, its access rules and filters applied, as `t`) grouped by the value of `groupBy`
 * in one query: the count per value and, for each field of `sums`, its sum. A row linked to several records of a
 * pivot field counts once in each of their groups; one linked to none is in the group without a value when `unlinked`.
 * Groups come in value order, missing values last.
 */
export async function groupRows(
  base: ListRows,
  fields: Record<string, FieldSpec>,
  groupBy: string,
  { sums = [], unlinked = false }: { sums?: readonly string[]; unlinked?: boolean } = {},
): Promise<ListGroup[]> {
  const spec = resolveField(groupBy, fields, 'filter');
  const added = sumColumns(fields, sums);
  let rows: Array<Record<string, unknown>>;
  if (typeof spec.storage === 'object') {
    const pivot = spec.storage;
    const constants = Object.entries(pivot.where ?? {}).map(
      ([column, constant]) => sql` and ${sql.ref(`g.${column}`)} = ${constant}`,
    );
    const on = sql<boolean>`${sql.ref(`g.${pivot.ownKey}`)} = t.id${sql.join(constants, sql``)}`;
    const table = `${pivot.pivot} as g`;
    let joined = unlinked ? base.leftJoin(table, (join) => join.on(on)) : base.innerJoin(table, (join) => join.on(on));
    const value = sql.ref(`g.${pivot.otherKey}`);
    joined = joined.select([value.as('value'), sql<number>`count(*)::int`.as('n'), ...added]).groupBy(value);
    rows = await joined.orderBy(sql`${value} asc nulls last`).execute();
  } else {
    const value = fieldExpression(groupBy, spec);
    rows = await base
      .select([value.as('value'), sql<number>`count(*)::int`.as('n'), ...added])
      .groupBy(value)
      .orderBy(sql`${value} asc nulls last`)
      .execute();
  }
  return rows.map((row) => ({ value: row.value ?? null, count: Number(row.n), sums: sumsOf(row, sums) }));
}

/**
 * The groups of `groupRows` (every row in one, those without a value last) with the count and the sums of the whole
 * list. A field kept on the row puts each row in one group: its groups and the list's total come from one scan of
 * the rows (`grouping sets`), which an index holding the field and the summed columns serves alone (migration 086's
 * for sites by type: docs/benchmarks.md "Views"). A link to several records (a pivot) may count a row in several
 * groups: the total is then counted apart.
 */
export async function groupsWithTotal(
  db: Kysely<DB>,
  base: ListRows,
  fields: Record<string, FieldSpec>,
  groupBy: string,
  sums: readonly string[],
): Promise<{ groups: ListGroup[]; total: { count: number; sums: Record<string, number> } }> {
  const spec = resolveField(groupBy, fields, 'filter');
  if (typeof spec.storage === 'object')
    return {
      groups: await groupRows(base, fields, groupBy, { sums, unlinked: true }),
      total: await totalOf(base, fields, sums),
    };
  const value = fieldExpression(groupBy, spec);
  const statement = base
    .select([
      value.as('value'),
      sql<number>`grouping(${value})`.as('whole'),
      sql<number>`count(*)::int`.as('n'),
      ...sumColumns(fields, sums),
    ])
    .groupBy(sql`grouping sets ((${value}), ())`)
    .orderBy(sql`${value} asc nulls last`)
    .compile();
  // The planner's default cost of a page read out of order (4, a disk's) has it scan the table rather than read such an
  // index whole; the rows are in memory (always in the embedded database), where taking the summed columns out of each
  // table row costs about twice the index's CPU (docs/benchmarks.md "Views"). For this statement only.
  const rows = await db.transaction().execute(async (trx) => {
    await sql`set local random_page_cost = 1.1`.execute(trx);
    return (await trx.executeQuery<Record<string, unknown>>(statement)).rows;
  });
  const whole = rows.find((row) => Number(row.whole) === 1);
  return {
    groups: rows
      .filter((row) => row !== whole)
      .map((row) => ({ value: row.value ?? null, count: Number(row.n), sums: sumsOf(row, sums) })),
    total: { count: Number(whole?.n ?? 0), sums: sumsOf(whole ?? {}, sums) },
  };
}

/** The count and the sums of `sums` over every row of `base`, each row once. */
export async function totalOf(
  base: ListRows,
  fields: Record<string, FieldSpec>,
  sums: readonly string[],
): Promise<{ count: number; sums: Record<string, number> }> {
  const row = await base.select([sql<number>`count(*)::int`.as('n'), ...sumColumns(fields, sums)]).executeTakeFirst();
  return { count: Number(row?.n ?? 0), sums: sumsOf(row ?? {}, sums) };
}

const sumColumns = (fields: Record<string, FieldSpec>, sums: readonly string[]) =>
  sums.map((slug, index) => sql<number>`coalesce(sum(${fieldExpression(slug, fields[slug])}), 0)`.as(`s${index}`));

const sumsOf = (row: Record<string, unknown>, sums: readonly string[]) =>
  Object.fromEntries(sums.map((slug, index) => [slug, Number(row[`s${index}`] ?? 0)]));
