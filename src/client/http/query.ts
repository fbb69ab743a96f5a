/** Query strings in the shape of the /api contract (docs/api.md "Lists"). */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[]
  | Record<string, unknown>;
export type Query = Record<string, QueryValue>;

/**
 * Encode a flat query. Arrays become `key[]=a&key[]=b`, plain objects are sent as JSON (the list contract
 * accepts `filter={"field":value}`), `null`/`undefined` and empty text are left out (an empty filter is no
 * filter), booleans become 1/0.
 */
export function buildQueryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(`${key}[]`, scalar(item));
    } else if (typeof value === 'object') {
      if (Object.keys(value).length === 0) continue;
      params.append(key, JSON.stringify(value));
    } else {
      params.append(key, scalar(value as string | number | boolean));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function scalar(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

export function withQuery(path: string, query: Query | undefined): string {
  const qs = buildQueryString(query);
  if (!qs) return path;
  return path.includes('?') ? `${path}&${qs.slice(1)}` : `${path}${qs}`;
}
