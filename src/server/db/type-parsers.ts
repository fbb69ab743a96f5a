/** How both databases give back the values of these types (node-postgres' and PGlite's parsers by type oid). */

// bigint (count(*), sums) and numeric (money) arrive as numbers: ids and counts fit, money is dollars.
export const INT8 = 20;
export const NUMERIC = 1700;
export const toNumber = (value: string) => (value === null ? null : Number(value));
// A `date` column (bid date, joined on) arrives as its 'YYYY-MM-DD' text: a JS Date would be midnight UTC, which a
// browser west of Greenwich shows as the day before.
export const DATE = 1082;
export const asText = (value: string) => value;
