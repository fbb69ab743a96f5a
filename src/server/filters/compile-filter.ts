/**
 * The one filter compiler (docs/records.md "Filters"): a view's filters (filter-tree.ts) as one SQL condition on the
 * rows of a record type (`t`), for lists, views, exports, counts, and the assistant and automations. Each condition is
 * its field type's operator (common/field-types/, `filters`, with the view operators of sql.ts VIEW_FILTERS); a related
 * record's field (`contractor.type`) is a condition on the related records the person may read. Values are always bound
 * parameters. The access rules are applied by the caller around it (RecordService.visibleRows), as for any list.
 */
import { type RawBuilder, sql } from 'kysely';
import type { FilterOperator, Sql, SqlFragment } from '../../common/field-types/define.js';
import {
  eqIsOneOf,
  FilterValueError,
  VIEW_FILTER_BASIS,
  VIEW_FILTERS,
  valueExpression,
} from '../../common/field-types/sql.js';
import { moduleOfSpec } from '../../common/field-types.js';
import { ValidationError } from '../http/errors.js';
import { withChoiceKeys } from '../records/choice-keys.js';
import { resolveField } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import type { FieldSpec } from '../records/resource.js';
import {
  conditionsOf,
  type FilterCondition,
  type FilterGroup,
  type FilterItem,
  isGroup,
  itemsOf,
  parseFilterTree,
} from './filter-tree.js';

/** What a filter is compiled against. */
export interface FilterScope {
  db: RecordService['db'];
  /** The record type's fields (RecordService.fields). */
  fields: Record<string, FieldSpec>;
  /** The person asking (`me`). */
  userId?: number | null;
  /** The moment relative dates are read at. */
  now: Date;
  /** The organization's time zone (`TIME_ZONE`), where its days start. */
  timeZone: string;
  /**
   * The records a relation points at that the person may read (as `t`) and their fields; undefined when the relation
   * points at no record type (a site address part).
   */
  related(
    spec: FieldSpec,
  ): Promise<
    { fields: Record<string, FieldSpec>; rows: Awaited<ReturnType<RecordService['visibleRows']>> } | undefined
  >;
  /** The key of the 422's errors (`filters`; `filter` for the list query's `filter[field]=value`). */
  errorKey?: string;
}

const SQL = sql as unknown as Sql;
const raw = (fragment: SqlFragment) => fragment as unknown as RawBuilder<boolean>;

/** The operators a field can be filtered by: its type's, then the view operators that apply to it and build on its own. */
export function operatorsOf(spec: FieldSpec): Record<string, FilterOperator> {
  const own = moduleOfSpec(spec).filters;
  const view = Object.entries(VIEW_FILTERS).filter(
    ([name, op]) => !(name in own) && VIEW_FILTER_BASIS[name] in own && (op.applies?.(spec) ?? true),
  );
  return { ...Object.fromEntries(view), ...own };
}

/** The filters as one SQL condition on `t`; 422 naming an unknown field, an unknown operator or a value that does not fit. */
export async function compileFilter(group: FilterGroup, scope: FilterScope): Promise<RawBuilder<boolean>> {
  const refuse = (message: string): never => {
    throw new ValidationError({ [scope.errorKey ?? 'filters']: [message] });
  };
  const items = await Promise.all(
    withOneOfs(group, scope.fields).map((item) =>
      isGroup(item) ? compileFilter(item, scope) : condition(item, scope, refuse),
    ),
  );
  if (!items.length) return sql<boolean>`true`;
  return sql<boolean>`(${sql.join(items, sql.raw('all' in group ? ' and ' : ' or '))})`;
}

/**
 * A group's items, with the `eq` conditions of an `any` group on one field (`type is union or type is pla`) as one `in`
 * condition where that finds the same rows (sql.ts eqIsOneOf): an index then serves them in one scan.
 */
function withOneOfs(group: FilterGroup, fields: Record<string, FieldSpec>): FilterItem[] {
  const items = itemsOf(group);
  if (!('any' in group)) return items;
  const folds = (item: FilterItem): item is FilterCondition => {
    if (isGroup(item) || item.op !== 'eq' || item.value === null || typeof item.value === 'object') return false;
    const spec = Object.hasOwn(fields, item.field) ? fields[item.field] : undefined;
    return Boolean(spec && spec.filterable !== false && eqIsOneOf(spec) && Object.hasOwn(operatorsOf(spec), 'in'));
  };
  const values = new Map<string, unknown[]>();
  for (const item of items) if (folds(item)) values.set(item.field, [...(values.get(item.field) ?? []), item.value]);
  const folded = new Set<string>();
  return items.flatMap((item): FilterItem[] => {
    if (!folds(item) || (values.get(item.field)?.length ?? 0) < 2) return [item];
    if (folded.has(item.field)) return [];
    folded.add(item.field);
    return [{ field: item.field, op: 'in', value: values.get(item.field) }];
  });
}

/**
 * What is wrong with a filter over records of these fields, without a database (a rollup's condition, checked as the
 * field is saved): its shape, each field (their own, no related record's), operator and value; null when it compiles.
 */
export function filterProblem(input: unknown, fields: Record<string, FieldSpec>): string | null {
  try {
    for (const item of conditionsOf(parseFilterTree(input))) {
      const spec = fields[item.field];
      if (!spec || spec.filterable === false) return `There is no field "${item.field}" to filter by.`;
      const operators = operatorsOf(spec);
      const operator = Object.hasOwn(operators, item.op) ? operators[item.op] : undefined;
      if (!operator)
        return `"${item.op}" is not a filter of "${item.field}": use one of ${Object.keys(operators).join(', ')}.`;
      operator.sql({ sql: SQL, field: item.field, spec, value: item.value, alias: 't', now: new Date() });
    }
    return null;
  } catch (error) {
    if (error instanceof FilterValueError) return error.message;
    if (error instanceof ValidationError) return Object.values(error.errors).flat()[0] ?? 'The filter is not right.';
    throw error;
  }
}

function specOf(field: string, fields: Record<string, FieldSpec>, refuse: (message: string) => never): FieldSpec {
  try {
    return resolveField(field, fields, 'filter');
  } catch {
    return refuse(`There is no field "${field}" to filter by.`);
  }
}

async function condition(
  item: FilterCondition,
  scope: FilterScope,
  refuse: (message: string) => never,
): Promise<RawBuilder<boolean>> {
  const dot = item.field.indexOf('.');
  if (dot > 0) return relatedCondition(item, dot, scope, refuse);
  const spec = specOf(item.field, scope.fields, refuse);
  const operators = operatorsOf(spec);
  const operator = Object.hasOwn(operators, item.op) ? operators[item.op] : undefined;
  if (!operator)
    return refuse(`"${item.op}" is not a filter of "${item.field}": use one of ${Object.keys(operators).join(', ')}.`);
  const [keyed] = await withChoiceKeys(
    scope.db,
    [{ field: item.field, operator: item.op, value: item.value }],
    scope.fields,
  );
  try {
    return raw(
      operator.sql({
        sql: SQL,
        field: item.field,
        spec,
        value: keyed.value,
        alias: 't',
        userId: scope.userId,
        now: scope.now,
        timeZone: scope.timeZone,
      }),
    );
  } catch (error) {
    if (error instanceof FilterValueError) return refuse(`${item.field}: ${error.message}`);
    throw error;
  }
}

/**
 * `contractor.type is union`: the rows whose relation points at a related record the person may read that holds the
 * condition (one step: the related record's own fields).
 */
async function relatedCondition(
  item: FilterCondition,
  dot: number,
  scope: FilterScope,
  refuse: (message: string) => never,
): Promise<RawBuilder<boolean>> {
  const via = item.field.slice(0, dot);
  const spec = specOf(via, scope.fields, refuse);
  const target = spec.references ? await scope.related(spec) : undefined;
  if (!target) return refuse(`"${via}" is not a relation to records: "${item.field}" cannot be filtered.`);
  const inner = { ...item, field: item.field.slice(dot + 1) };
  if (inner.field.includes('.')) return refuse(`"${item.field}": a filter reaches one related record, not further.`);
  const matching = await compileFilter({ all: [inner] }, { ...scope, fields: target.fields });
  const ids = target.rows.select('t.id').where(matching);
  if (typeof spec.storage === 'object') {
    const pivot = spec.storage;
    const constants = Object.entries(pivot.where ?? {}).map(
      ([column, constant]) => sql` and p.${sql.ref(column)} = ${constant}`,
    );
    return sql<boolean>`exists (select 1 from ${sql.table(pivot.pivot)} p where p.${sql.ref(pivot.ownKey)} = t.id${sql.join(constants, sql``)} and p.${sql.ref(pivot.otherKey)} in (${ids}))`;
  }
  const value = valueExpression(SQL, via, spec, 't') as unknown as RawBuilder<unknown>;
  if (spec.kind === 'integer[]')
    return sql<boolean>`exists (select 1 from jsonb_array_elements_text(coalesce(${value}, '[]'::jsonb)) e(v) where e.v::bigint in (${ids}))`;
  return sql<boolean>`${value} in (${ids})`;
}
