import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routeTable } from '../../src/server/http/route-permissions.js';
import type { FieldKind, FieldSpec } from '../../src/server/records/resource.js';
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
  t = await startTestApp();
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
  String((await t.ctx.db.selectFrom(table).select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())?.id ?? 1);

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
