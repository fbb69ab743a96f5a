/**
 * The one query-string parser of the server (Fastify's `querystringParser`). An empty parameter means no filter
 * (`team_id=` is what a form sends for "any team"), so empty values are left out before any route validates the
 * query. A repeated name gives an array, as Fastify's default parser does.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === '' || name === '' || name === '__proto__') continue;
    const existing = query[name];
    if (existing === undefined) query[name] = value;
    else query[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}
