import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { $ZodType } from 'zod/v4/core';
import { type RouteEntry, routeTable } from '../../src/server/http/route-permissions.js';
import { isClientFileRoute } from '../support/client-file-routes.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Every route declares its contract with zod (src/server/http/contracts.ts, docs/api.md "Contracts"): the routes are
 * listed from the built app (Fastify's onRoute hook, http/route-permissions.ts routeTable), and each must declare
 * its answers (at least one 2xx, and the shared error answers), its params when its path has any, its body when it
 * takes one (POST, PUT, PATCH) and its query when it is read (GET). The only routes that answer no JSON and declare
 * nothing are the built client's files and the realtime websocket.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const isZod = (schema: unknown) => schema instanceof $ZodType;
/** A part declared per content type (`{content: {'text/csv': {schema}}}`): each type's schema. */
const schemasOf = (declared: unknown): unknown[] =>
  declared && typeof declared === 'object' && 'content' in declared
    ? Object.values((declared as { content: Record<string, { schema: unknown }> }).content).map((c) => c.schema)
    : [declared];
/** The routes that answer no JSON: the client's files and the Pusher-protocol websocket. */
const answersNoJson = (route: RouteEntry) => route.websocket || isClientFileRoute(route);

/** What is missing from a route's contract ([] when nothing). */
function gaps(route: RouteEntry): string[] {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const missing: string[] = [];
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const statuses = Object.keys(response);
  if (!statuses.some((status) => /^2\d\d$/.test(status))) missing.push('a 2xx answer');
  const errors = ['404', '422', ...(route.permission === 'public' ? [] : ['401', '403'])];
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) errors.push('419');
  for (const status of errors) if (!(status in response)) missing.push(`the ${status} answer`);
  if (/:\w/.test(route.url) && !schema.params) missing.push('params');
  if (['POST', 'PUT', 'PATCH'].includes(route.method) && !schema.body) missing.push('body');
  if (route.method === 'GET' && !schema.querystring) missing.push('querystring');
  for (const part of ['params', 'querystring', 'body', 'headers'] as const)
    if (schema[part] && !schemasOf(schema[part]).every(isZod)) missing.push(`${part} as zod`);
  for (const [status, declared] of Object.entries(response))
    if (!schemasOf(declared).every(isZod)) missing.push(`the ${status} answer as zod`);
  return missing;
}

describe('route contracts', () => {
  it('lists every route of the app', () => {
    const routes = routeTable(t.app);
    expect(routes.length).toBeGreaterThan(300);
    expect(routes.filter(answersNoJson).map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /app/:key',
      'GET /assets/:name',
      'GET /*',
    ]);
  });

  it('every route declares its answers, params, query and body with zod', () => {
    const undeclared = routeTable(t.app)
      .filter((route) => !answersNoJson(route))
      .flatMap((route) => {
        const missing = gaps(route);
        return missing.length ? [`${route.method} ${route.url}: ${missing.join(', ')}`] : [];
      });
    expect(undeclared).toEqual([]);
  });

  it('fails a route that declares no answer', () => {
    const bare: RouteEntry = {
      method: 'GET',
      url: '/api/example/:id',
      permission: 'signed-in',
      schema: undefined,
      websocket: false,
    };
    expect(gaps(bare)).toEqual([
      'a 2xx answer',
      'the 404 answer',
      'the 422 answer',
      'the 401 answer',
      'the 403 answer',
      'params',
      'querystring',
    ]);
  });
});
