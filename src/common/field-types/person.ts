import * as z from 'zod/mini';
import { asWholeNumber } from './cells.js';
import { defineFieldType, type FilterArgs, type FilterOperator, type FilterOperators } from './define.js';
import { COMMON, flag } from './options.js';
import { FilterValueError, STANDARD_FILTER_INDEX, STANDARD_FILTERS, valueExpression } from './sql.js';
import { plainWords } from './words.js';

/** What a filter of a person field writes for the person asking (`filter[inspector]=me`). */
export const ME = 'me';

/** The users a person field names: live accounts, checked to exist on every write. */
const USERS = { table: 'users', softDelete: true } as const;

/** `me` as the asking person's id; a filter saved with `me` reads as whoever opens it. */
function withMe(args: FilterArgs): FilterArgs {
  const one = (value: unknown) => {
    if (typeof value !== 'string' || value.trim().toLowerCase() !== ME) return value;
    if (!args.userId) throw new FilterValueError('"me" means the person asking: sign in to use it.');
    return args.userId;
  };
  return { ...args, value: Array.isArray(args.value) ? args.value.map(one) : one(args.value) };
}

const meAware = (operator: FilterOperator): FilterOperator => ({
  ...operator,
  sql: (args) => operator.sql(withMe(args)),
});

const PERSON_FILTERS: FilterOperators = {
  ...STANDARD_FILTERS,
  eq: meAware(STANDARD_FILTERS.eq),
  neq: meAware(STANDARD_FILTERS.neq),
  in: meAware(STANDARD_FILTERS.in),
};

/** A person's name as lists sort by it (first and last name, without case); accounts gone sort last. */
const nameOf = ({ sql, field, spec, alias }: Omit<FilterArgs, 'value'>) =>
  sql`(select lower(u.first_name || ' ' || u.last_name) from users u where u.id = ${valueExpression(sql, field, spec, alias)})`;

/**
 * A person: the id of a user account (an inspector, who signed off), picked from the people; a filter's `me` is the
 * person asking. Lists sort by the person's name; a file's cell gives the account's id.
 */
export const person = defineFieldType({
  type: 'person',
  label: 'Person',
  options: z.strictObject({ ...COMMON, unique: flag('unique') }),
  checkOptions: (options) => options,
  validation: () => ['required', 'unique', 'read_only'],
  kind: () => 'integer',
  spec: () => ({ min: 1, references: USERS }),
  fromCell: asWholeNumber,
  toCell: 'names',
  filters: PERSON_FILTERS,
  sort: { key: nameOf, index: () => null },
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
