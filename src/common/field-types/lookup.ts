import * as z from 'zod/mini';
import { COMPUTED_PARTS } from './computed.js';
import {
  defineFieldType,
  OptionProblem,
  type SiblingField,
  type Sql,
  type SqlFragment,
  type ValueKind,
} from './define.js';
import { COMMON, oneOf } from './options.js';
import { valueExpression } from './sql.js';
import { throughRelation } from './through-relation.js';

/** The kinds a lookup gives: the looked-up field's, choices as their labels, several related records as text. */
export const LOOKUP_RESULTS = ['text', 'email', 'phone', 'url', 'number', 'date', 'datetime', 'boolean'] as const;
type LookupResult = (typeof LOOKUP_RESULTS)[number];

const RESULT_OF_KIND: Partial<Record<ValueKind, LookupResult>> = {
  text: 'text',
  email: 'email',
  phone: 'phone',
  url: 'url',
  color: 'text',
  enum: 'text',
  integer: 'number',
  number: 'number',
  date: 'date',
  datetime: 'datetime',
  boolean: 'boolean',
};

const slug = (key: string, what: string) =>
  z.string({ error: `The options.${key} must be ${what}.` }).check(z.maxLength(60));

/** This record's relation field, and the field of the related records shown, with the kind it gives; or what is wrong. */
export interface LookupParts {
  link: SiblingField;
  value: SiblingField;
  result: LookupResult;
}

/** The relation `through` of this record and the related type's field `field` it shows; or the option that is wrong. */
export function lookupParts(
  options: { through: string; field: string },
  fields: readonly SiblingField[] | undefined,
  typeFields: ((type: string) => readonly SiblingField[] | undefined) | undefined,
): LookupParts | OptionProblem {
  const joined = throughRelation(options.through, fields, typeFields, 'look up');
  if (joined instanceof OptionProblem) return joined;
  const { link, related } = joined;
  const value = related.find((f) => f.slug === options.field);
  if (!value) return new OptionProblem('field', `The related records have no field “${options.field}”.`);
  const single = RESULT_OF_KIND[value.spec.kind];
  if (!single || value.spec.computed || value.spec.references || typeof value.spec.storage === 'object')
    return new OptionProblem(
      'field',
      `“${value.name}” holds records, a list or a worked-out value: it cannot be looked up.`,
    );
  // Several related records: their values, joined as text.
  return { link, value, result: link.spec.kind === 'integer[]' ? 'text' : single };
}

/** The looked-up value of one related row `r`: a choice as its label, as lists show it. */
function shownValue(sql: Sql, value: SiblingField): SqlFragment {
  const stored = valueExpression(sql, value.slug, value.spec, 'r');
  const labels = Object.entries(value.spec.choiceLabels ?? {});
  if (value.spec.kind !== 'enum' || !labels.length) return stored;
  const cases = labels.map(([key, label]) => sql` when ${sql.lit(key)} then ${sql.lit(label)}`);
  return sql`(case ${stored}${sql.join(cases, sql``)} else ${stored} end)`;
}

/** The value of the related rows `rows` (as `r`) the record `alias` points at through its relation. */
function lookupSql(sql: Sql, alias: string, rows: SqlFragment, parts: LookupParts): SqlFragment {
  const link = valueExpression(sql, parts.link.slug, parts.link.spec, alias);
  const value = shownValue(sql, parts.value);
  if (parts.link.spec.kind === 'integer[]')
    return sql`(select string_agg((${value})::text, ', ' order by r.id) from ${rows} r where ${link} @> to_jsonb(r.id))`;
  const typed =
    parts.result === 'number'
      ? sql`(${value})::numeric`
      : parts.result === 'date'
        ? sql`(${value})::date`
        : parts.result === 'datetime'
          ? sql`(${value})::timestamptz`
          : parts.result === 'boolean'
            ? sql`(${value})::boolean`
            : sql`(${value})::text`;
  return sql`(select ${typed} from ${rows} r where r.id = ${link})`;
}

/**
 * A lookup: a field of the record (or records) this one points at through one of its relations, shown on this one (a
 * site's general contractor's phone). Read-only; worked out by a subquery over the related rows the reader may read,
 * so a related record they cannot read shows nothing; filtered and sorted as the looked-up field's kind (several
 * related records: their values joined as text), a choice as its label.
 */
export const lookup = defineFieldType({
  type: 'lookup',
  label: 'Lookup',
  options: z.strictObject({
    help: COMMON.help,
    hide_in_list: COMMON.hide_in_list,
    through: slug('through', 'the slug of a relation field of this type'),
    field: slug('field', 'the slug of a field of the related records'),
    result: oneOf('result', LOOKUP_RESULTS),
  }),
  checkOptions(options, context) {
    if (!context.fields || !context.typeFields)
      return new OptionProblem('through', 'A lookup is checked against the fields of its record type.');
    const parts = lookupParts(options, context.fields, context.typeFields);
    if (parts instanceof OptionProblem) return parts;
    return { ...options, result: parts.result };
  },
  kind: (options) => options.result ?? 'text',
  ...COMPUTED_PARTS,
  compute(options, context) {
    const parts = lookupParts(options, context.fields, context.typeFields);
    if (parts instanceof OptionProblem || !parts.link.spec.references) return { computed: (sql) => sql`null` };
    return {
      computedOver: (sql, alias, over) => lookupSql(sql, alias, over, parts),
      readsRows: parts.link.spec.references,
    };
  },
});
