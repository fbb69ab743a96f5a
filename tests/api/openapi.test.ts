import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../src/server/http/route-permissions.js';
import { isClientFileRoute } from '../support/client-file-routes.js';
import { openApiResponseCheck } from '../support/openapi-responses.js';
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
      if (route.websocket || isClientFileRoute(route)) continue;
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation) missing.push(`${route.method} ${route.url}`);
      else if (!Object.keys(operation.responses ?? {}).some((status) => /^2\d\d$/.test(status)))
        missing.push(`${route.method} ${route.url}: no 2xx answer`);
      else if (!operation.tags?.length) missing.push(`${route.method} ${route.url}: in no group (tag)`);
      else if (Object.values(operation.responses).some((answer: any) => answer.description === 'Default Response'))
        missing.push(`${route.method} ${route.url}: an answer described as "Default Response"`);
    }
    expect(missing).toEqual([]);
    expect(document.paths['/api/imports'].get.tags).toEqual(['Imports']);
    expect(document.paths['/api/auth/login'].post.tags).toEqual(['Sign-in']);
    expect(document.paths['/api/sites/{id}'].put.responses['422'].description).toBe('Unprocessable Entity');
    // A record list says what it answers: the paginator of its type's records.
    const sites = document.paths['/api/sites'].get.responses['200'].content['application/json'].schema;
    expect(sites).toEqual({ $ref: '#/components/schemas/site.page' });
    expect(Object.keys(document.components.schemas['site.page'].properties)).toEqual(['data', 'meta']);
  });
});

describe('the record types in the document', () => {
  // biome-ignore lint/suspicious/noExplicitAny: an operation of the parsed document.
  type Operation = any;
  const json = (operation: Operation, status: string) => operation.responses[status].content['application/json'].schema;
  const body = (operation: Operation) => operation.requestBody.content['application/json'].schema;

  it("describes each type's fields with their types, required fields and choices", () => {
    const schemas = document.components.schemas;
    const site = schemas['site.record'];
    expect(site.properties.id).toEqual({ type: 'integer' });
    expect(site.properties.name.type).toEqual(['string', 'null']);
    const create = schemas['site.create'];
    expect(create.required).toContain('name');
    expect(schemas['site.update'].required).toBeUndefined();
    // A dropdown's choices are what a write may send.
    const choices = Object.values(create.properties).find((p) => Array.isArray((p as { enum?: unknown }).enum)) as {
      enum: unknown[];
    };
    expect(choices?.enum.length).toBeGreaterThan(1);
    const paths = document.paths;
    expect(json(paths['/api/sites/{id}'].get, '200')).toEqual({ $ref: '#/components/schemas/site.answer' });
    expect(body(paths['/api/sites'].post)).toEqual({ $ref: '#/components/schemas/site.create' });
    expect(body(paths['/api/sites/{id}'].patch)).toEqual({ $ref: '#/components/schemas/site.update' });
    expect(paths['/api/sites'].get.tags).toEqual(['Sites']);
  });

  it('has a field an administrator adds, and a type made in the app, at once', async () => {
    const contact = (await admin.get('/api/schemas')).body.data.find((s: { type: string }) => s.type === 'contact');
    const field = await admin.post('/api/schema-fields', {
      schema_id: contact.id,
      name: 'Shirt size',
      type: 'dropdown',
      required: true,
      options: { choices: ['S', 'M', 'L'] },
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const made = await admin.post('/api/schemas', {
      name_singular: 'Vehicle',
      name_plural: 'Vehicles',
      fields: [{ name: 'Seats', type: 'number' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const now = (await admin.get('/api/openapi.json')).body;
    expect(now.components.schemas['contact.create'].properties.shirt_size).toMatchObject({ enum: ['s', 'm', 'l'] });
    expect(now.components.schemas['contact.create'].required).toContain('shirt_size');
    expect(now.components.schemas['vehicle.record'].properties.seats.type).toEqual(['number', 'null']);
    const vehicles = now.paths['/api/vehicles'];
    expect(json(vehicles.get, '200')).toEqual({ $ref: '#/components/schemas/vehicle.page' });
    expect(vehicles.get.parameters.some((p: { name: string }) => p.name === 'resource')).toBe(false);
    expect(json(now.paths['/api/vehicles/{id}'].get, '200')).toEqual({ $ref: '#/components/schemas/vehicle.answer' });
    // The test client checks each answer against the document: a vehicle made and read passes it.
    expect((await admin.post('/api/vehicles', { name: 'Van', seats: 8 })).status).toBe(201);
  });

  it("fails a test on an answer that does not match the document (the test client's check)", async () => {
    const check = openApiResponseCheck(t.app, t.ctx.db);
    const answer = { method: 'GET', url: '/api/sites/1', status: 200, contentType: 'application/json' };
    expect(await check({ ...answer, body: { data: { id: 1, name: 'Pier 9' } } })).toBeNull();
    expect(await check({ ...answer, body: { data: { id: 'one' } } })).toMatch(/\/data\/id must be integer/);
    expect(await check({ ...answer, body: { data: { id: 1, name: 42 } } })).toMatch(/\/data\/name must be string/);
    expect(await check({ ...answer, status: 418, body: {} })).toMatch(/does not declare/);
    expect(await check({ ...answer, url: '/api/nothing-here/1/2', body: {} })).toMatch(/no such operation/);
  });
});
