import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/server/http/route-permissions.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * GET /api/openapi.json (src/server/api-docs/): the OpenAPI 3.1 document generated from the routes' contracts. It is
 * a valid document (the OpenAPI 3.1 schema, @seriousme/openapi-schema-validator), every schema in it is valid JSON
 * Schema 2020-12, and it lists every route of the app with its answers.
 */
let t: TestApp;
let admin: TestClient;
/** The document as JSON (its paths and components are read by key below). */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by the keys OpenAPI gives it.
let document: any;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const res = await admin.get('/api/openapi.json');
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  document = res.body;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Every JSON Schema in the document: components and each operation's parameters, bodies and answers. */
function* schemasIn(value: unknown, key = ''): Generator<unknown> {
  if (!value || typeof value !== 'object') return;
  if (key === 'schema') {
    yield value;
    return;
  }
  for (const [name, child] of Object.entries(value)) yield* schemasIn(child, name);
}

describe('the OpenAPI document', () => {
  it('is for signed-in people only', async () => {
    expect((await t.client().get('/api/openapi.json')).status).toBe(401);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds only valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const invalid: string[] = [];
    const components = Object.entries(document.components?.schemas ?? {});
    for (const [name, schema] of components) if (!ajv.validateSchema(schema as object)) invalid.push(name);
    let count = 0;
    for (const schema of schemasIn(document.paths)) {
      count++;
      if (!ajv.validateSchema(schema as object)) invalid.push(JSON.stringify(schema).slice(0, 200));
    }
    expect(count).toBeGreaterThan(500);
    expect(invalid).toEqual([]);
  });

  it('lists every route with its answers', () => {
    const missing: string[] = [];
    for (const route of routeTable(t.app)) {
      // The client's files and the realtime websocket answer no JSON (tests/api/route-contracts.test.ts).
      if (route.websocket || route.url === '/*') continue;
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation) missing.push(`${route.method} ${route.url}`);
      else if (!Object.keys(operation.responses ?? {}).some((status) => /^2\d\d$/.test(status)))
        missing.push(`${route.method} ${route.url}: no 2xx answer`);
    }
    expect(missing).toEqual([]);
    // A record list says what it answers: the paginator of records.
    const sites = document.paths['/api/sites'].get.responses['200'].content['application/json'].schema;
    expect(sites).toEqual({ $ref: '#/components/schemas/RecordPage' });
    expect(Object.keys(document.components.schemas.RecordPage.properties)).toEqual(['data', 'meta']);
  });
});
