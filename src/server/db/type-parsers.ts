// bigint (count(*), sums) and numeric (money) arrive as numbers: ids and counts fit, money is dollars.
const INT8 = 20;
const NUMERIC = 1700;
const toNumber = (value: string) => (value === null ? null : Number(value));
// A `date` column (bid date, joined on) arrives as its 'YYYY-MM-DD' text: a JS Date would be midnight UTC, which a
// browser west of Greenwich shows as the day before.
const DATE = 1082;
const asText = (value: string) => value;

/** How both databases' drivers read these column types, by type oid. */
export const TYPE_PARSERS = { [INT8]: toNumber, [NUMERIC]: toNumber, [DATE]: asText };
