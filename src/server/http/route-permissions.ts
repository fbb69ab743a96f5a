import type { FastifyInstance } from 'fastify';
import type { Action } from '../../common/permissions.js';
import { unauthenticated } from './errors.js';

/**
 * What a route needs, declared on the route itself: `app.get(url, { config: { permission } }, handler)`.
 *
 * - `'public'`: anyone, signed in or not (sign-in, the client's config, health).
 * - `'signed-in'`: any signed-in person; the handler limits the answer to their own rows or rows they may read.
 * - `'entity:action'`: that permission, held exactly (`'revision:read'`, `'user:impersonate'`).
 * - `{ resource, action }`: the permission of a resource's records (`{ resource: 'sites', action: 'read' }`): its
 *   entity and action, any category of it (`site:read:union` reads sites). `resource: ':resource'` names the
 *   resource by the path parameter of that name; an unknown one is a 404.
 * - `{ anyOf: [...] }` / `{ allOf: [...] }`: combinations.
 *
 * The sign-in half is enforced here for every route. The permission itself is checked once, where the data is:
 * the record service for records, the handler for the rest (with its own message and finer rules such as row
 * filters and categories). The declaration is the contract the permission matrix test
 * (tests/api/route-permissions.test.ts) holds every route to, for every role, on both databases: a route that
 * declares nothing fails it.
 */
export type RoutePermission =
  | 'public'
  | 'signed-in'
  | `${string}:${string}`
  | { resource: string; action: Action }
  | { anyOf: readonly RoutePermission[] }
  | { allOf: readonly RoutePermission[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route of the app with its declared permission (HEAD routes mirror their GET and are left out). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}

/** Whether a signed-out visitor is let through to the handler. */
function openToSignedOut(permission: RoutePermission | undefined, url: string): boolean {
  // Undeclared routes outside /api are the built client's files.
  if (permission === undefined) return !url.startsWith('/api/');
  if (permission === 'public') return true;
  // A resource named by the path: the record service answers 401 once the path names one, else the path is a 404.
  return typeof permission === 'object' && 'resource' in permission && permission.resource.startsWith(':');
}

/** Keeps the route table of `app` (call before any route is added). */
export function collectRoutes(app: FastifyInstance) {
  const routes: RouteEntry[] = [];
  tables.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, permission: route.config?.permission });
    }
  });
}

/** Answers 401 to a signed-out visitor of any route that is not open to them (after the session is read). */
export function requireSignIn(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.user) return;
    if (!openToSignedOut(request.routeOptions.config?.permission, request.routeOptions.url ?? request.url))
      throw unauthenticated();
  });
}
