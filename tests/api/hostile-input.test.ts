import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/config.js';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { type RouteEntry, routeTable } from '../../src/server/http/route-permissions.js';
import type { FieldKind, FieldSpec } from '../../src/server/records/resource.js';
import { upload } from '../fixtures/upload.js';
import { headerText, rawRequest } from '../support/raw-request.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Hostile input against every route, generated from the routes themselves (the route table, their path parameters,
 * the fields of the resources they serve, the list query grammar): malformed and deeply nested JSON, huge numbers
 * and strings, NUL and invalid UTF-8, wrong types, unknown fields, odd page sizes, injection-looking sorts and
 * filters, hostile file names and uploads, Host headers that claim another address, Idempotency-Keys malformed or
 * reused for other requests. Whatever comes back must not be a 5xx, and after each batch the server still answers
 * GET /api/health.
 */
let t: TestApp;
let admin: TestClient;
/** Every 5xx seen, with what caused it. */
const failures: string[] = [];
let sent = 0;

beforeAll(async () => {
  // The barrage is one administrator firing eight requests at once, uploads among them: heavy work is limited per
  // person (HEAVY_WORK_PER_PERSON), so the limits are raised for it, and set back to the defaults below.
  t = await startTestApp({ HEAVY_WORK_PER_PERSON: '1000', HEAVY_WORK_TOTAL: '1000' });
  admin = await t.admin();
  // Targets with ids: the newest row of each table is one made here, so the hostile writes land on throwaway rows.
  await t.createUser({ role: 'user', email: 'hostile-target@example.com' });
  await admin.post('/api/roles', { slug: 'hostile-target', name: 'Hostile target', permissions: [] });
  const site = await admin.post('/api/sites', { name: 'Hostile site', type: 'union', latitude: 34, longitude: -118 });
  await admin.post('/api/notes', { body: 'Hostile note', notable_type: 'site', notable_id: site.body.data.id });
  await admin.post('/api/importers', {
    name: 'Hostile importer',
    record_type: 'site',
    columns: [{ header: 'Name', target: 'site.name' }],
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const HUGE = 'x'.repeat(200_000);
const NUL = 'nul\u0000byte';

/** Bodies sent as they are: broken or hostile JSON text. */
const RAW_BODIES: Array<[string, string | Uint8Array, string?]> = [
  ['malformed JSON', '{"name": "x",'],
  ['JSON with a trailing comma and a comment', '{"name": "x", /* hi */ }'],
  ['deeply nested object', deep(20_000)],
  ['deeply nested array', deepArray(50_000)],
  ['prototype pollution', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'],
  [
    'invalid UTF-8',
    new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  ],
  ['an escaped NUL and a lone surrogate', '{"name": "a\\u0000b", "title": "\\ud800", "body": "\\udfff"}'],
  [
    'numbers beyond any range',
    '{"id": 1e400, "per_page": -1e400, "position": 123456789012345678901234567890, "name": 0.1e-400}',
  ],
  ['a text body sent as JSON', 'just some words'],
  ['an empty body', ''],
  ['a body of the wrong type', '<xml>not json</xml>', 'application/xml'],
];

/** Bodies sent as JSON: wrong shapes and types, unknown fields. */
const JSON_BODIES: Array<[string, unknown]> = [
  ['an array', [1, 2, 3]],
  ['a string', 'hello'],
  ['null', null],
  ['unknown fields', { definitely_not_a_field: 1, __proto__x: 2, 'name; drop table users': 'x', $where: '1' }],
  [
    'huge and hostile strings',
    {
      name: HUGE,
      title: NUL,
      body: '<script>alert(1)</script>',
      email: `${'a'.repeat(300)}@example.com`,
      password: NUL,
      token: NUL,
      first_name: NUL,
    },
  ],
  [
    'wrong types everywhere',
    {
      name: { nested: true },
      id: 'abc',
      ids: 'not-a-list',
      position: 'first',
      colors: 'red',
      level: 7,
      role_id: [1],
      permissions: 'all',
      columns: { a: 1 },
      fields: 'x',
      data: 12,
    },
  ],
  [
    'huge numbers',
    {
      id: 1e308,
      position: -1e308,
      per_page: 1e12,
      importer_id: 9_999_999_999_999,
      user_id: Number.MAX_SAFE_INTEGER * 10,
      latitude: 1e300,
      longitude: -1e300,
    },
  ],
];

/** Hostile values by field kind, for the fields of each resource's create and update. */
const WRONG_BY_KIND: Record<FieldKind, unknown[]> = {
  text: [{ a: 1 }, NUL, HUGE.slice(0, 30_000)],
  email: ['a@', NUL, ['x@example.com']],
  phone: ['<b>12</b>', NUL, 1e30],
  url: ['javascript:alert(1)', 'http://' + 'a'.repeat(5_000), NUL],
  color: ['red;<img src=x>', NUL, 123],
  integer: [1e20, 'abc', -1e20],
  number: ['NaN', Number.POSITIVE_INFINITY, 'Infinity'],
  boolean: ['maybe', { a: 1 }, NUL],
  date: ['2020-13-45', '0000-00-00', NUL],
  datetime: ['yesterday', '99999-01-01T00:00:00Z', NUL],
  enum: [['x'], NUL, 5],
  'enum[]': ['x', [NUL], Array.from({ length: 5_000 }, (_, i) => `v${i}`)],
  'integer[]': [['a', -1], [1e20], 'x'],
  json: [JSON.parse(deep(2_000)), HUGE, [NUL]],
};

/** List parameters: odd page sizes, injection-looking sorts and filters. */
const LIST_QUERIES = [
  'per_page=0&page=-1',
  'per_page=1000000000&page=1e20',
  'per_page=abc&page=99999999',
  'sort=name;drop%20table%20users&order=sideways',
  "sort=custom-%3E%3E'x'",
  'sort[]=a&sort[]=b&sort=-',
  "filter[name']=x&filter[id]=1e20",
  'filter[id][]=abc&filter[created_at_gte]=0000-01-01',
  'filter[created_at]=not-a-date&filter[__proto__][]=1',
  'filter={"name":',
  'filter={"id":{"$gt":0}}',
  `q=${'%25'.repeat(300)}&search=%00`,
  `search=${'a'.repeat(5_000)}`,
  'filter[deleted_at_null]=1&sort=deleted_at',
  'with_trashed=1&only_trashed=1&filter[team_ids]=99999999999',
  'ids[]=abc&ids[]=1e99&q=%00',
  'bbox=1,2,3&zoom=abc&layers=x',
  'bbox=-999,-999,999,999&zoom=99&measure=;drop',
  'from=2020-99-99&to=yesterday&month=2026-13',
  'format=csv&group_by=;drop&interval=eon',
];

/** Path parameter values. */
const IDS = ['0', '-1', 'abc', '1e5', '99999999999999999999', '%00', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '1;select%201'];

/** Hostile uploads: names and contents. */
const UPLOADS: Array<{ label: string; name: string; content: Uint8Array | string; type?: string; field?: string }> = [
  { label: 'a path in the name', name: '../../../../etc/passwd.csv', content: 'Name\nx\n' },
  { label: 'NUL and markup in the name', name: 'a\u0000b<img src=x onerror=alert(1)>.csv', content: 'Name\nx\n' },
  { label: 'a very long name', name: `${'n'.repeat(2_000)}.csv`, content: 'Name\nx\n' },
  { label: 'an empty file', name: 'empty.csv', content: '' },
  {
    label: 'binary content',
    name: 'photo.csv',
    content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
  },
  { label: 'UTF-16 text', name: 'utf16.csv', content: new Uint8Array([0xff, 0xfe, 0x4e, 0, 0x61, 0]) },
  {
    label: 'ten thousand columns',
    name: 'wide.csv',
    content: `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(9_999)}1\n`,
  },
  { label: 'one cell of half a megabyte', name: 'cell.csv', content: `Name\n"${'y'.repeat(500_000)}"\n` },
  {
    label: 'deeply nested GeoJSON',
    name: 'deep.geojson',
    content: `{"type":"FeatureCollection","features":${deepArray(30_000)}}`,
    type: 'application/geo+json',
  },
  { label: 'a wrong field name', name: 'x.csv', content: 'Name\nx\n', field: 'not_the_file' },
  { label: 'a script as a document', name: 'evil.html', content: '<script>alert(1)</script>', type: 'text/html' },
];

/** The administrator's cookies and CSRF header, for requests made by hand. */
async function adminHeaders(): Promise<Record<string, string>> {
  if (!admin.jar.has('XSRF-TOKEN')) await admin.csrf();
  return {
    accept: 'application/json',
    cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-xsrf-token': decodeURIComponent(admin.jar.get('XSRF-TOKEN')!),
  };
}

async function send(
  method: string,
  path: string,
  body?: string | Uint8Array | FormData,
  contentType = 'application/json',
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...(await adminHeaders()), ...extra };
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = contentType;
  sent++;
  try {
    const response = await fetch(t.baseUrl + path, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : (body as BodyInit),
    });
    const text = await response.text();
    if (response.status >= 500)
      failures.push(`${method} ${path.slice(0, 160)}: ${response.status} ${text.slice(0, 200)}`);
    return response.status;
  } catch (error) {
    failures.push(`${method} ${path.slice(0, 160)}: no answer (${(error as Error).message})`);
    return 0;
  }
}

/** Runs the calls a few at a time: the barrage stays quick, and requests overlap as a browser's would. */
async function inParallel(calls: Array<() => Promise<unknown>>, width = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < calls.length) await calls[next++]();
    }),
  );
}

async function healthy(batch: string) {
  const res = await t.client().get('/api/health');
  expect(res.status, `GET /api/health after ${batch}`).toBe(200);
}

const latestId = async (table: string) =>
  String(
    (await dynamicTables(t.ctx.db).selectFrom(table).select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())
      ?.id ?? 1,
  );

/** The routes worth aiming at: all of them but sign-out and impersonation, which would change who this client is. */
function targets(): RouteEntry[] {
  return routeTable(t.app).filter(
    (r) =>
      r.url !== '/app/:key' &&
      r.url !== '/*' &&
      r.url !== '/api/auth/logout' &&
      !r.url.startsWith('/api/auth/impersonate'),
  );
}

/**
 * The generic routes of a resource (records/routes.ts, schemas/custom-types.ts): one handler for every resource, so
 * the shape corpus goes to each resource's create and update, and the parser-level corpus to one of them. PUT and
 * PATCH are the same handler as POST.
 */
function generic(route: RouteEntry) {
  const permission = route.permission;
  const name = route.url.split('/')[2];
  return (
    typeof permission === 'object' &&
    'resource' in permission &&
    [name, ':resource'].includes(permission.resource) &&
    /^\/api\/[^/]+(\/:id(\/restore)?)?$/.test(route.url)
  );
}

async function pathOf(route: RouteEntry, id?: string) {
  let path = route.url.replace(':resource', 'sites');
  if (path.includes(':id')) {
    const segment = path.split('/')[2];
    const def = t.ctx.resources.get(segment === 'map' ? 'regions' : segment);
    path = path.replace(':id', id ?? (def ? await latestId(def.table) : '1'));
  }
  return path.replace(':key', 'key');
}

describe('hostile input against every route', () => {
  it('path parameters: zero, negative, text, huge, NUL, traversal, SQL', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of targets().filter(
      (r) => r.url.includes(':id') && !(generic(r) && (r.method === 'PUT' || r.method === 'PATCH')),
    )) {
      for (const id of IDS)
        calls.push(async () =>
          send(
            route.method,
            await pathOf(route, id),
            route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
          ),
        );
    }
    await inParallel(calls);
    await healthy('path parameters');
    expect(failures).toEqual([]);
  }, 300_000);

  it('broken, deep and hostile JSON bodies, and wrong shapes, to every route that takes a body', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of targets().filter(
      (r) => r.method !== 'GET' && r.method !== 'DELETE' && !(generic(r) && r.method !== 'POST'),
    )) {
      const path = await pathOf(route);
      const everything = !generic(route) || route.url.startsWith('/api/sites');
      if (everything) for (const [, body, type] of RAW_BODIES) calls.push(() => send(route.method, path, body, type));
      for (const [, body] of JSON_BODIES) calls.push(() => send(route.method, path, JSON.stringify(body)));
    }
    await inParallel(calls);
    await healthy('bodies');
    expect(failures).toEqual([]);
  }, 300_000);

  it('each resource’s fields, created and updated with values of the wrong kind', async () => {
    for (const def of t.ctx.resources.all()) {
      const fields: Record<string, FieldSpec> = await t.ctx.records.fields(def);
      const id = await latestId(def.table);
      for (let variant = 0; variant < 3; variant++) {
        const body = Object.fromEntries(
          Object.entries(fields).map(([name, spec]) => [name, WRONG_BY_KIND[spec.kind][variant]]),
        );
        if (!def.ownRoutes?.includes('create')) await send('POST', `/api/${def.name}`, JSON.stringify(body));
        if (!def.ownRoutes?.includes('update') && def.name !== 'users')
          await send('POST', `/api/${def.name}/${id}`, JSON.stringify(body));
      }
    }
    await healthy('fields of the wrong kind');
    expect(failures).toEqual([]);
  }, 300_000);

  it('list parameters: odd page sizes, injection-looking sorts and filters, to every read', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of targets().filter((r) => r.method === 'GET' && !r.url.includes(':id'))) {
      const path = await pathOf(route);
      for (const query of LIST_QUERIES) calls.push(() => send('GET', `${path}?${query}`));
    }
    await inParallel(calls);
    await healthy('list parameters');
    expect(failures).toEqual([]);
  }, 300_000);

  it('hostile uploads: names, contents and fields, to every route that takes a file', async () => {
    const uploadRoutes = targets().filter(
      (r) =>
        r.method === 'POST' &&
        /\/(imports|imports\/preview|documents|attachments|sites\/:id\/attachments|regions\/upload|importers\/import|importer-columns\/import)$/.test(
          r.url,
        ),
    );
    expect(uploadRoutes.length).toBeGreaterThanOrEqual(8);
    const importer = await latestId('importers');
    for (const route of uploadRoutes) {
      const path = await pathOf(route);
      for (const upload of UPLOADS) {
        const form = new FormData();
        form.append('importer_id', importer);
        form.append('documentable_type', 'site');
        form.append('documentable_id', await latestId('sites'));
        form.append('geometry_type', 'state');
        form.append(
          upload.field ?? (route.url.includes('imports') ? 'files[]' : 'file'),
          new Blob([upload.content as BlobPart], { type: upload.type ?? 'text/csv' }),
          upload.name,
        );
        await send('POST', path, form);
      }
      // Too many files, a field flood, and a multipart body cut short.
      const many = new FormData();
      for (let i = 0; i < 30; i++) many.append('files[]', new Blob(['Name\nx\n'], { type: 'text/csv' }), `f${i}.csv`);
      await send('POST', path, many);
      const fields = new FormData();
      for (let i = 0; i < 500; i++) fields.append(`field${i}`, 'v');
      await send('POST', path, fields);
      await send(
        'POST',
        path,
        '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nName\nx',
        'multipart/form-data; boundary=cut',
      );
      await send('POST', path, 'no boundary at all', 'multipart/form-data');
    }
    await healthy('uploads');
    expect(failures).toEqual([]);
  }, 300_000);

  it('Host headers claiming another address, to every read: never copied into a header or an answer', async () => {
    const hosts = ['evil.example:1;script-src *', '"><script>alert(1)</script>', 'evil.example:443'];
    const echoed: string[] = [];
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of targets().filter((r) => r.method === 'GET')) {
      // Each answer's policy is the one the same request gets with its own Host (downloads have a stricter one).
      let policy: Promise<string | undefined> | undefined;
      for (const host of hosts)
        calls.push(async () => {
          const path = await pathOf(route);
          policy ??= rawRequest(t.baseUrl, 'GET', path, await adminHeaders()).then(
            (plain) => plain.headers['content-security-policy'] as string | undefined,
          );
          const res = await rawRequest(t.baseUrl, 'GET', path, {
            ...(await adminHeaders()),
            host,
            'x-forwarded-host': host,
            'x-forwarded-proto': 'javascript',
          });
          sent++;
          if (res.status >= 500)
            failures.push(`GET ${path} with Host ${host}: ${res.status} ${res.text.slice(0, 200)}`);
          if (/evil|<script>/.test(headerText(res.headers)) || /evil\.example|<script>alert/.test(res.text))
            echoed.push(`GET ${path} with Host ${host}`);
          if (res.headers['content-security-policy'] !== (await policy))
            echoed.push(`GET ${path} with Host ${host}: another policy`);
        });
    }
    await inParallel(calls);
    // A reset mail's link is made from APP_URL (its default here), whatever Host the request gave.
    const before = t.mails.length;
    const reset = await rawRequest(
      t.baseUrl,
      'POST',
      '/api/password/reset',
      { ...(await adminHeaders()), host: 'evil.example:1', 'content-type': 'application/json' },
      JSON.stringify({ email: 'hostile-target@example.com' }),
    );
    expect(reset.status).toBe(200);
    expect(t.mails.slice(before).map((mail) => /(\S+\/password\/update)\?/.exec(mail.text)?.[1])).toEqual([
      `${t.config.appUrl}/password/update`,
    ]);
    await healthy('Host headers');
    expect(echoed).toEqual([]);
    expect(failures).toEqual([]);
  }, 300_000);

  it('Idempotency-Keys malformed, or reused for another method, path or body: 422, nothing written twice', async () => {
    const site = await latestId('sites');
    const note = (body: string) => JSON.stringify({ body, notable_type: 'site', notable_id: Number(site) });
    const bad = [
      'short',
      'k'.repeat(201),
      'has spaces in it',
      'ünïcödé-key-123',
      '"unbalanced-key-123',
      '""',
      'a,b,c,d,e,f,g,h',
    ];
    for (const key of bad)
      expect(await send('POST', '/api/notes', note(`bad key ${key}`), undefined, { 'idempotency-key': key }), key).toBe(
        422,
      );

    const key = { 'idempotency-key': 'hostile-reused-key-0001' };
    expect(await send('POST', '/api/notes', note('The first request'), undefined, key)).toBe(201);
    const calls: Array<() => Promise<unknown>> = [];
    const answers: number[] = [];
    const writes = targets().filter(
      (r) => generic(r) && r.method !== 'GET' && r.method !== 'DELETE' && !r.url.endsWith('/restore'),
    );
    for (const route of writes)
      for (const body of ['{}', note('The first request'), note('Another body')])
        calls.push(async () => {
          const path = await pathOf(route);
          if (path === '/api/notes' && body === note('The first request')) return;
          answers.push(await send(route.method, path, body, undefined, key));
        });
    await inParallel(calls);
    // Nothing was written under the reused key: every answer is a refusal (422 for the key, or the route's own 4xx).
    expect(answers.filter((status) => status === 422).length).toBeGreaterThan(20);
    expect(answers.filter((status) => status < 400 || status >= 500)).toEqual([]);
    // A fresh key sent with six different bodies at once: one is written, the others refused.
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        send('POST', '/api/notes', note(`Raced body ${i}`), undefined, {
          'idempotency-key': '"hostile-race-key-0001"',
        }),
      ),
    );
    expect(raced.sort()).toEqual([201, 422, 422, 422, 422, 422]);
    const written = await t.ctx.db
      .selectFrom('notes')
      .select('body')
      .where('body', 'in', [
        'The first request',
        'Another body',
        ...Array.from({ length: 6 }, (_, i) => `Raced body ${i}`),
      ])
      .execute();
    expect(written.filter((row) => !row.body.startsWith('Raced')).map((row) => row.body)).toEqual([
      'The first request',
    ]);
    expect(written.filter((row) => row.body.startsWith('Raced'))).toHaveLength(1);
    await healthy('Idempotency-Keys');
    expect(failures).toEqual([]);
  }, 300_000);

  it('was a real barrage, and the server is still there', async () => {
    expect(sent).toBeGreaterThan(2_000);
    await healthy('everything');
  });
});

/**
 * Issue 28, "bounded work for every input": the attack that took the server down (four 1,000,000-column files sent for
 * preview at once), every upload path refusing a file over a limit with 422 naming it, and heavy work beyond its
 * share answered 429. With the settings' defaults, after the barrage's queued imports have run.
 */
describe('bounded work for every input', () => {
  const defaults = loadConfig({});
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let organizers: Array<{ client: TestClient; id: number }> = [];

  beforeAll(async () => {
    await t.app.jobs.drain();
    Object.assign(t.config.limits, defaults.limits);
    Object.assign(t.config.heavyWork, defaults.heavyWork);
    organizers = [];
    for (let i = 0; i < 5; i++) {
      const email = `bounded-${i}@example.com`;
      const user = await t.createUser({ role: 'user', email });
      organizers.push({ client: await t.signIn(email), id: user.id });
    }
  }, 300_000);

  /** Runs `during` while GET /api/health is asked every 20 ms; each answer's time in ms. */
  async function timedHealth<T>(during: () => Promise<T>): Promise<{ result: T; times: number[] }> {
    const times: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const res = await t.client().get('/api/health');
        expect(res.status).toBe(200);
        times.push(performance.now() - started);
        await sleep(20);
      }
    })();
    try {
      return { result: await during(), times };
    } finally {
      probing = false;
      await probe;
    }
  }

  /**
   * POST one file as multipart form data, the body made beforehand and written at once (node:http): the client shares
   * the server's thread here, and fetch's streaming of a FormData would take that thread's time as the server's.
   */
  async function sendFile(client: TestClient, path: string, name: string, content: Buffer) {
    if (!client.jar.has('XSRF-TOKEN')) await client.csrf();
    const boundary = `attack-${name}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="record_type"\r\n\r\nsite\r\n--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return new Promise<{ status: number; body: { message: string; errors: Record<string, string[]> } }>(
      (resolve, reject) => {
        const req = http.request(`${t.baseUrl}${path}`, {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(body.length),
            'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
            cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
          },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        });
        // The server answers before the whole body is read and drops the rest; the connection may close under the write.
        req.on('error', (error) => (req.writableFinished ? undefined : reject(error)));
        req.end(body);
      },
    );
  }

  it('four organizers previewing a 1,000,000-column file at once: 422 naming the limit, health answering throughout, the server alive', async () => {
    const wide = Buffer.from(`${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n`); // 7.9 MB
    const { result: answers, times } = await timedHealth(() =>
      Promise.all(
        organizers.slice(0, 4).map(({ client }, i) => sendFile(client, '/api/imports/preview', `wide-${i}.csv`, wide)),
      ),
    );
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(422);
      expect(answer.body.errors.files).toEqual([
        `"wide-${i}.csv" has more than 500 columns; the most a file may have is 500.`,
      ]);
    }
    // However quickly the four are refused, health was asked while they ran (the probe's first request starts with them).
    expect(times.length).toBeGreaterThan(0);
    // The benchmark holds it to 100 ms (npm run bench -- upload-attack); before issue 28 it was tens of seconds.
    expect(Math.max(...times)).toBeLessThan(1_000);
    expect((await t.client().get('/api/health')).status).toBe(200);
    expect(t.ctx.heavyWork.running()).toBe(0);
  }, 120_000);

  it('every upload path refuses a file over a limit with 422 naming the limit', async () => {
    const admin = await t.admin();
    const importer = await latestId('importers');
    const site = await latestId('sites');
    const limits = t.config.limits;
    const csvPaths: Array<[string, Record<string, string>, string]> = [
      ['/api/imports', { importer_id: importer }, 'files[]'],
      ['/api/imports/preview', { record_type: 'site' }, 'files[]'],
      ['/api/importer-columns/import', { importer_id: importer }, 'file'],
    ];
    const refused = async (
      path: string,
      fields: Record<string, string>,
      field: string,
      name: string,
      content: string,
    ) => {
      const res = await upload(t, admin, path, fields, [{ name, content }], field);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(422);
      return Object.values(res.body.errors as Record<string, string[]>).flat()[0];
    };
    const imports = (await admin.get('/api/imports')).body.meta.total;
    try {
      Object.assign(limits, { columns: 3, rows: 2, cellBytes: 64, uploadBytes: 4_096 });
      for (const [path, fields, field] of csvPaths) {
        expect(await refused(path, fields, field, 'wide.csv', 'a,b,c,d\n1,2,3,4\n')).toBe(
          '"wide.csv" has more than 3 columns; the most a file may have is 3.',
        );
        expect(await refused(path, fields, field, 'cell.csv', `a,b\n1,${'x'.repeat(65)}\n`)).toBe(
          '"cell.csv" has a cell on line 2 larger than 64 bytes; the most one cell may hold is 64 bytes.',
        );
        expect(await refused(path, fields, field, 'big.csv', `a\n${'1\n'.repeat(3_000)}`)).toMatch(
          /^"big\.csv" (is larger than 4 KB; the most a file may be is 4 KB|has more than 2 rows)/,
        );
      }
      // Rows: the import and its preview (column mapping reads only the header).
      for (const [path, fields, field] of csvPaths.slice(0, 2))
        expect(await refused(path, fields, field, 'long.csv', 'a\n1\n2\n\n3\n')).toBe(
          '"long.csv" has more than 2 rows; the most a file may have is 2. Split it into smaller files and import them one after the other.',
        );
      // Column mapping from a list of headers (JSON) has the same cap.
      const headers = await admin.post('/api/importer-columns/import', {
        importer_id: importer,
        headers: ['a', 'b', 'c', 'd'],
      });
      expect(headers.status).toBe(422);
      // Documents and attachments are kept, never parsed: their size is their limit.
      for (const [path, fields] of [
        ['/api/documents', { documentable_type: 'site', documentable_id: site }],
        ['/api/attachments', { documentable_type: 'site', documentable_id: site }],
        [`/api/sites/${site}/attachments`, {}],
      ] as const)
        expect(await refused(path, fields, 'file', 'notes.csv', 'x'.repeat(5_000))).toBe(
          '"notes.csv" is larger than 4 KB; the most a file may be is 4 KB. Split it into smaller files.',
        );
      // Region files (GeoJSON): features, a feature's properties, a property's value, size.
      const polygon = {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      };
      const geojson = (features: Array<Record<string, unknown>>) =>
        JSON.stringify({
          type: 'FeatureCollection',
          features: features.map((properties) => ({ type: 'Feature', properties, geometry: polygon })),
        });
      const regions: Array<[string, string]> = [
        [
          geojson([{ code: '1' }, { code: '2' }, { code: '3' }]),
          'has more than 2 features; the most a file may have is 2.',
        ],
        [
          geojson([{ code: '1', a: 1, b: 2, c: 3 }]),
          'has more than 3 properties in feature 1; the most a feature may have is 3.',
        ],
        [
          geojson([{ code: '1' }, { code: '2', name: 'y'.repeat(65) }]),
          'has a property value in feature 2 larger than 64 bytes',
        ],
        [
          geojson([{ code: 'x'.repeat(60) }]).padEnd(5_000, ' '),
          'is larger than 4 KB; the most a file may be is 4 KB.',
        ],
      ];
      for (const [content, message] of regions)
        expect(
          await refused('/api/regions/upload', { geometry_type: 'state' }, 'file', 'shapes.geojson', content),
        ).toContain(`"shapes.geojson" ${message}`);
      // An importer file is a JSON body sent as a file: the body's limit.
      limits.bodyBytes = 1_024;
      expect(
        await refused(
          '/api/importers/import',
          {},
          'file',
          'importer.json',
          JSON.stringify({ name: 'x'.repeat(2_000) }),
        ),
      ).toBe('The request is larger than 1 KB; the most one request may carry is 1 KB. Send less at a time.');
      // The offline outbox's writes are JSON bodies: over BODY_LIMIT_BYTES (1 MB here), 422 naming it.
      Object.assign(limits, defaults.limits);
      const note = await admin.post(
        '/api/notes',
        { body: 'x'.repeat(1_100_000), notable_type: 'site', notable_id: Number(site) },
        { headers: { 'idempotency-key': 'outbox-over-the-limit' } },
      );
      expect(note.status).toBe(422);
      expect(note.body.errors.body).toEqual([
        'The request is larger than 1 MB; the most one request may carry is 1 MB. Send less at a time.',
      ]);
      // Nothing was imported from the refused files.
      expect((await admin.get('/api/imports')).body.meta.total).toBe(imports);

      // The import job reads with the limits too: a file kept before they were lowered fails, saying which.
      const kept = await upload(t, admin, '/api/imports', { importer_id: importer }, [
        { name: 'kept.csv', content: 'Name\nOne\nTwo\nThree\n' },
      ]);
      expect(kept.status).toBe(201);
      limits.rows = 2;
      await t.app.jobs.drain();
      const run = (await admin.get(`/api/imports/${kept.body.data.id}`)).body.data;
      expect(run.status).toBe('failed');
      expect(run.message).toContain('"kept.csv" has more than 2 rows; the most a file may have is 2.');
    } finally {
      Object.assign(limits, defaults.limits);
    }
  }, 120_000);

  /**
   * An upload that has started and not finished: its multipart body is sent up to the file's first bytes and held,
   * so the request is admitted and under way until `finish()`.
   */
  async function heldUpload(client: TestClient, userId: number) {
    if (!client.jar.has('XSRF-TOKEN')) await client.csrf();
    const boundary = 'held-upload-boundary';
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="record_type"\r\n\r\nsite\r\n--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="held.csv"\r\nContent-Type: text/csv\r\n\r\nName\n`,
          ),
        );
        await released;
        controller.enqueue(encoder.encode(`One\n\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const answer = fetch(`${t.baseUrl}/api/imports/preview`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
        cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    for (let waited = 0; t.ctx.heavyWork.running(userId) === 0; waited += 10) {
      if (waited > 20_000) throw new Error('The held upload was never admitted');
      await sleep(10);
    }
    return {
      async finish() {
        release();
        return (await answer).status;
      },
    };
  }

  it('heavy work beyond its share, per person and in all, is answered 429 with Retry-After before the upload is read', async () => {
    const [a, b, c] = organizers;
    const csv = [{ name: 'small.csv', content: 'Name\nOne\n' }];
    const preview = (who: TestClient) => upload(t, who, '/api/imports/preview', { record_type: 'site' }, csv);
    try {
      Object.assign(t.config.heavyWork, { perPerson: 1, total: 2 });
      const first = await heldUpload(a.client, a.id);
      const mine = await preview(a.client);
      expect(mine.status).toBe(429);
      expect(mine.headers.get('retry-after')).toBe('5');
      expect(mine.body.message).toMatch(/the most one person may have at once is 1\. Try again when one has finished/);
      // Another person still has a turn; a third finds the server's share taken.
      const second = await heldUpload(b.client, b.id);
      const third = await preview(c.client);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('5');
      expect(third.body.message).toMatch(
        /^The server is busy with 2 uploads, previews, imports, exports or bulk edits/,
      );
      expect(await first.finish()).toBe(200);
      expect(await second.finish()).toBe(200);
      expect((await preview(c.client)).status).toBe(200);

      // An import waiting in the queue is the person's heavy work until it has run.
      const queued = await upload(t, a.client, '/api/imports', { importer_id: await latestId('importers') }, csv);
      expect(queued.status).toBe(201);
      const busy = await preview(a.client);
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('30');
      const exportStart = await a.client.post('/api/exports', { resource: 'sites' });
      expect(exportStart.status).toBe(429);
      await t.app.jobs.drain();
      expect((await preview(a.client)).status).toBe(200);
      expect(t.ctx.heavyWork.running()).toBe(0);
    } finally {
      Object.assign(t.config.heavyWork, defaults.heavyWork);
    }
  }, 120_000);
});
