/**
 * Reading the values vendors put in CSV files: dates, money, numbers, yes/no flags and coordinates.
 * Pure functions shared by the server (imports) and the client (preview hints). Each returns
 * `{ ok: true, value }` or `{ ok: false, error }` with a message a person can act on.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const pad = (n: number) => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1800 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** Two-digit years: 00-69 are 2000-2069, 70-99 are 1970-1999 (as spreadsheets do). */
const fullYear = (year: number, digits: number) => (digits <= 2 ? (year < 70 ? 2000 + year : 1900 + year) : year);

/**
 * Dates in the forms vendors use, always read as US month-first when ambiguous:
 * `2026-03-01`, `2026-03-01T10:00:00Z`, `2026/03/01`, `3/1/2026`, `03/01/26`, `3-1-2026`, `Mar 1, 2026`,
 * `March 1 2026`, `1 Mar 2026`, `01-Mar-2026`, and Excel serial day numbers (`46082` = 2026-03-01).
 */
export function parseDate(input: string): Parsed<string> {
  const text = input.trim();
  const fail: Parsed<string> = {
    ok: false,
    error: `"${truncate(text)}" is not a date (use 2026-03-01, 3/1/2026 or Mar 1, 2026).`,
  };
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s].*)?$/.exec(text);
  if (m) return wrap(isoDate(+m[1], +m[2], +m[3]), fail);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp][Mm])?)?$/.exec(text);
  if (m) return wrap(isoDate(fullYear(+m[3], m[3].length), +m[1], +m[2]), fail);
  m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(text);
  if (m && MONTHS[m[1].toLowerCase()]) return wrap(isoDate(+m[3], MONTHS[m[1].toLowerCase()], +m[2]), fail);
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})\.?[\s-](\d{2}|\d{4})$/.exec(text);
  if (m && MONTHS[m[2].toLowerCase()])
    return wrap(isoDate(fullYear(+m[3], m[3].length), MONTHS[m[2].toLowerCase()], +m[1]), fail);
  m = /^(\d{5})(?:\.\d+)?$/.exec(text);
  if (m) {
    const serial = +m[1];
    if (serial >= 20_000 && serial <= 80_000) {
      const date = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
      return { ok: true, value: `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` };
    }
  }
  return fail;
}

function wrap(value: string | null, fail: Parsed<string>): Parsed<string> {
  return value ? { ok: true, value } : fail;
}

/**
 * Money and plain numbers: `$1,250,000.00`, `1250000`, `1.25M`, `250K`, `2B`, `(1,000)` (negative, as accountants
 * write it), `-1,000`, `USD 1,000`, `1 000,00` is NOT understood (European decimal commas are refused, not guessed).
 */
export function parseMoney(input: string): Parsed<number> {
  const text = input.trim();
  const fail: Parsed<number> = {
    ok: false,
    error: `"${truncate(text)}" is not an amount (use 1250000, $1,250,000.00 or 1.25M).`,
  };
  let body = text.replace(/\b(usd|us\$|cad|dollars?)\b/gi, '').replace(/[$\s]/g, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(body);
  if (paren) {
    negative = true;
    body = paren[1];
  }
  if (body.startsWith('-')) {
    negative = !negative;
    body = body.slice(1);
  }
  body = body.replace(/^\$/, '');
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?([kKmMbB]|mm|MM)?$/.exec(body);
  if (!m || (!m[1] && !m[2])) return fail;
  let value = Number((m[1] ?? '0').replace(/,/g, '') + (m[2] ?? ''));
  const suffix = m[3]?.toLowerCase();
  if (suffix === 'k') value *= 1e3;
  else if (suffix === 'm' || suffix === 'mm') value *= 1e6;
  else if (suffix === 'b') value *= 1e9;
  if (!Number.isFinite(value)) return fail;
  value = Math.round(value * 100) / 100;
  return { ok: true, value: negative ? -value : value };
}

/** A plain number (no money suffixes): `12`, `-3.5`, `1,234.5`. */
export function parseNumber(input: string): Parsed<number> {
  const text = input.trim().replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text))
    return { ok: false, error: `"${truncate(input.trim())}" is not a number.` };
  return { ok: true, value: Number(text) };
}

const TRUE = new Set(['1', 'y', 'yes', 'true', 't', 'x', '✓', '✔', 'on', 'checked']);
const FALSE = new Set(['0', 'n', 'no', 'false', 'f', 'off', '-', 'unchecked']);

/** Yes/no flags: yes, y, true, 1, x, ✓ are yes; no, n, false, 0, - are no. */
export function parseFlag(input: string): Parsed<boolean> {
  const text = input.trim().toLowerCase();
  if (TRUE.has(text)) return { ok: true, value: true };
  if (FALSE.has(text)) return { ok: true, value: false };
  return { ok: false, error: `"${truncate(input.trim())}" is not yes or no.` };
}

/** `34.0522, -118.2437`, `(34.0522 -118.2437)` or `34.0522;-118.2437` → latitude and longitude. */
export function parseCoordinates(input: string): Parsed<{ latitude: number; longitude: number }> {
  const m = /^\s*\(?\s*([-+]?\d+(?:\.\d+)?)\s*[,;\s]\s*([-+]?\d+(?:\.\d+)?)\s*\)?\s*$/.exec(input);
  if (!m)
    return { ok: false, error: `"${truncate(input.trim())}" is not a pair of coordinates (use 34.0522, -118.2437).` };
  const latitude = Number(m[1]);
  const longitude = Number(m[2]);
  const range = checkLatLng(latitude, longitude);
  return range ? { ok: false, error: range } : { ok: true, value: { latitude, longitude } };
}

export function checkLatLng(latitude: number, longitude: number): string | null {
  if (!(latitude >= -90 && latitude <= 90)) return `The latitude ${latitude} is outside -90 to 90.`;
  if (!(longitude >= -180 && longitude <= 180)) return `The longitude ${longitude} is outside -180 to 180.`;
  return null;
}

/** "Smith, Jane", "Jane Q. Smith", "Jane Smith Jr." → first and last name. */
export function splitName(input: string): { first_name: string; last_name: string } {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text.includes(',')) {
    const [last, ...rest] = text.split(',');
    const first = rest.join(',').trim();
    if (first) return { first_name: first, last_name: last.trim() };
  }
  const parts = text.split(' ');
  if (parts.length === 1) return { first_name: parts[0], last_name: '' };
  let lastIndex = parts.length - 1;
  if (/^(jr|sr|ii|iii|iv)\.?$/i.test(parts[lastIndex]) && lastIndex > 1) lastIndex--;
  return { first_name: parts.slice(0, lastIndex).join(' '), last_name: parts.slice(lastIndex).join(' ') };
}

/** Lower case, punctuation and extra spaces removed: the form headers and names are compared in. */
export function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function truncate(text: string) {
  return text.length > 40 ? text.slice(0, 37) + '...' : text;
}
