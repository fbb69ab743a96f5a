import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can } from '../../src/common/permissions.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { type RouteEntry, type RoutePermission, routeTable } from '../../src/server/http/route-permissions.js';
import { startTestApp, type TestApp, type TestClient, type TestResponse } from '../support/test-app.js';

/**
 * The permission matrix, derived from the routes: every route of the built app × every seeded role, a role holding
 * one category permission only, and a signed-out visitor, on the database the suite runs on (PGlite, and PostgreSQL
 * in `npm run test:api:postgres`). Each route declares what it needs (`config.permission`,
 * src/server/http/route-permissions.ts); a route that declares nothing fails here. A person the declaration lets in
 * is not answered 401 or 403 (a missing record's 404 or a bad body's 422 is fine); anyone else is refused: 401
 * signed out, 403 signed in. Finer rules (rows of other categories, someone else's import) are the feature tests'.
 */
const ROLES = ['super', 'admin', 'leader', 'user', 'assistant', 'one-category'] as const;
type Who = (typeof ROLES)[number] | 'signed-out';
const MISSING_ID = 2_147_480_000;

let t: TestApp;
const clients = new Map<Who, TestClient>();
const people = new Map<Who, AuthUser | null>();
/** A real row of each table, for refused calls: a refusal must not depend on the record being missing. */
const realIds = new Map<string, number>();

beforeAll(async () => {
  t = await startTestApp();
  const admin = await t.admin();
  const oneCategory = await admin.post('/api/roles', {
    slug: 'one-category',
    name: 'One category',
    permissions: ['site:read:union'],
  });
  expect(oneCategory.status).toBe(201);
  // A record type made in the app, for the routes that serve such types by name.
  const vehicles = await admin.post('/api/schemas', {
    name_singular: 'Vehicle',
    name_plural: 'Vehicles',
    fields: [{ name: 'Plate', type: 'text' }],
  });
  expect(vehicles.status, JSON.stringify(vehicles.body)).toBe(201);
  // Rows the category roles may read (a union site and contractor), and one of each kind a route needs by id.
  const site = await admin.post('/api/sites', {
    name: 'Matrix site',
    type: 'union',
    latitude: 34.05,
    longitude: -118.24,
  });
  const contractor = await admin.post('/api/contractors', { name: 'Matrix contractor', type: 'union' });
  for (const res of [site, contractor]) expect(res.status, JSON.stringify(res.body)).toBe(201);
  const made = [
    await admin.post('/api/notes', { body: 'Matrix note', notable_type: 'site', notable_id: site.body.data.id }),
    await admin.post('/api/tasks', { title: 'Matrix task', type: 'call' }),
    await admin.post('/api/teams', { name: 'Matrix team' }),
    await admin.post('/api/importers', {
      name: 'Matrix importer',
      record_type: 'site',
      columns: [{ header: 'Name', target: 'site.name' }],
    }),
    await admin.post('/api/vehicles', { name: 'Matrix vehicle' }),
  ];
  for (const res of made) expect([201], JSON.stringify(res.body)).toContain(res.status);
  for (const who of ROLES) {
    const user = await t.createUser({ role: who, email: `matrix-${who}@example.com` });
    clients.set(who, await t.signIn(user.email));
    people.set(who, await t.authUser(user.email));
  }
  clients.set('signed-out', t.client());
  people.set('signed-out', null);
  for (const def of t.ctx.resources.all()) {
    let query = dynamicTables(t.ctx.db).selectFrom(def.table).select('id').orderBy('id', 'desc').limit(1);
    if (def.scope) query = query.where(def.scope.column, '=', def.scope.value);
    const row = await query.executeTakeFirst().catch(() => undefined);
    if (row) realIds.set(def.name, Number(row.id));
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** What the declaration lets `user` do: the rule each route is held to. */
function permits(user: AuthUser | null, permission: RoutePermission, params: Record<string, string>): boolean {
  if (permission === 'public') return true;
  if (!user) return false;
  if (permission === 'signed-in') return true;
  if (typeof permission === 'string') return can(user, permission);
  if ('anyOf' in permission) return permission.anyOf.some((p) => permits(user, p, params));
  if ('allOf' in permission) return permission.allOf.every((p) => permits(user, p, params));
  const name = permission.resource.startsWith(':') ? params[permission.resource.slice(1)] : permission.resource;
  const def = t.ctx.resources.get(name);
  if (!def) throw new Error(`The declaration names a resource "${name}" the app does not have`);
  const entity = def.permission ?? def.type;
  // As the record service decides: a resource with categories is allowed with any category of the permission.
  return def.categoryColumn
    ? can(user, `${entity}:${permission.action}`, true)
    : can(user, `${entity}:${permission.action}`);
}

/** The resource a path's `:id` belongs to: the segment before it, when that names one (`/api/users/:id/goals`). */
function resourceOfId(segments: string[], params: Record<string, string>): string | undefined {
  const at = segments.indexOf(':id');
  const before = segments[at - 1];
  return before === ':resource' ? params.resource : t.ctx.resources.get(before) ? before : segments[2];
}

/** Concrete calls of a route: `:resource` takes every resource the route may name; `:id` a real row or a missing one. */
function concreteCalls(route: RouteEntry, refused: boolean): Array<{ url: string; params: Record<string, string> }> {
  const segments = route.url.split('/');
  const resourceNames = segments.includes(':resource')
    ? route.url.startsWith('/api/options/')
      ? t.ctx.resources.all().map((d) => d.name)
      : ['vehicles']
    : [undefined];
  return resourceNames.map((resource) => {
    const params: Record<string, string> = resource ? { resource } : {};
    const idResource = resourceOfId(segments, params);
    const id = refused ? (realIds.get(idResource ?? '') ?? MISSING_ID) : MISSING_ID;
    params.id = String(id);
    const url = segments
      .map((segment) => (segment.startsWith(':') ? (params[segment.slice(1)] ?? segment) : segment))
      .join('/');
    return { url, params };
  });
}

/** Routes that read their input before the permission decides (a shape file, a body): a well-formed one. */
const square = {
  type: 'Polygon',
  coordinates: [
    [
      [-118, 34],
      [-117, 34],
      [-117, 35],
      [-118, 35],
      [-118, 34],
    ],
  ],
};
const WELL_FORMED: Record<string, unknown> = {
  'POST /api/regions/colors': { ids: [MISSING_ID], color: '#112233' },
  'POST /api/regions/load-us': { level: 'states', states: ['06'] },
  'POST /api/regions/upload': {
    data: {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'Matrix square' }, geometry: square }],
    },
  },
  'POST /api/schemas/:id/reorder': { position: 0 },
  'POST /api/importers/import': { name: 'Matrix import', record_type: 'site', columns: [] },
};

async function call(who: Who, route: RouteEntry, url: string, refused: boolean): Promise<TestResponse> {
  const key = `${route.method} ${route.url}`;
  const body =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : refused && key in WELL_FORMED
        ? WELL_FORMED[key]
        : {};
  // Signing out would end the session the other rows use: that call gets a session of its own.
  const client =
    key === 'POST /api/auth/logout' && who !== 'signed-out'
      ? await t.signIn(`matrix-${who}@example.com`)
      : clients.get(who)!;
  return client.request(route.method, url, body);
}

describe('route permissions', () => {
  it('every route declares what it needs', () => {
    const routes = routeTable(t.app);
    expect(routes.length).toBeGreaterThan(100);
    // Outside the server's own paths the only route is the built client's files, open to anyone.
    const undeclared = routes.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual(['GET /*']);
  });

  it('each route × each role: let in as declared, else 401 signed out and 403 signed in', async () => {
    const mismatches: string[] = [];
    let calls = 0;
    const superClient = clients.get('super')!;
    for (const route of routeTable(t.app)) {
      if (!route.permission) continue;
      // The websocket speaks the Pusher protocol, which authorises channels itself (tests/api/realtime.test.ts).
      if (route.url === '/app/:key') continue;
      // A path naming no resource the route serves (options of a list without names) is a 404 for everyone.
      const named = new Set<string>();
      if (route.url.includes(':resource')) {
        for (const { url, params } of concreteCalls(route, false))
          if (route.method !== 'GET' || (await superClient.get(url)).status !== 404) named.add(params.resource);
      }
      for (const who of [...ROLES, 'signed-out'] as const) {
        const user = people.get(who)!;
        for (const refused of [false, true]) {
          for (const { url, params } of concreteCalls(route, refused)) {
            if (params.resource && !named.has(params.resource)) continue;
            const allowed = permits(user, route.permission, params);
            if (allowed === refused) continue; // the allowed are called with missing ids, the refused with real ones
            const res = await call(who, route, url, refused);
            calls++;
            const expected = allowed ? 'not 401/403' : who === 'signed-out' ? '401' : '403';
            const ok = allowed
              ? res.status !== 401 && res.status !== 403
              : res.status === (who === 'signed-out' ? 401 : 403);
            if (!ok || res.status >= 500)
              mismatches.push(
                `${route.method} ${url} as ${who}: ${res.status}, expected ${expected} (${JSON.stringify(route.permission)}) ${JSON.stringify(res.body).slice(0, 160)}`,
              );
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(calls).toBeGreaterThan(1_000);
  }, 600_000);
});
