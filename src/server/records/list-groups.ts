import { sql } from 'kysely';
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
