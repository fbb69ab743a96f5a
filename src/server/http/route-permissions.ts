import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { type Action, can } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden, type HttpError, unauthenticated } from './errors.js';

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
    /** `false`: the route answers everyone alike, so the session is not read for it (the client's hashed assets). */
    session?: false;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
  /** Its contract: params, querystring, body and response (http/contracts.ts). */
  schema: FastifySchema | undefined;
  /** The realtime hub's websocket: the Pusher protocol, no HTTP answer. */
  websocket: boolean;
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
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          permission: route.config?.permission,
          schema: route.schema,
          websocket: Boolean((route as { websocket?: boolean }).websocket),
        });
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

/** How a declared resource permission is decided: the record service's own check (with its message), by name. */
export type ResourceCheck = (user: AuthUser, resource: string, action: Action) => 'allowed' | 'unknown' | HttpError;

const resourceChecks = new WeakMap<FastifyInstance, ResourceCheck>();

/** Gives the app's way of deciding `{resource, action}` declarations (app.ts, once the record service exists). */
export function decideResourcesWith(app: FastifyInstance, check: ResourceCheck) {
  resourceChecks.set(app, check);
}

/**
 * Why the declaration refuses this request, or null when it lets the person in (or cannot say: a path naming no
 * resource, which the route answers 404). The route's input is validated before its handler runs; a refused person is
 * told 401 or 403 rather than what was wrong with the input (http/error-handler.ts), as a valid request would be.
 */
export function declaredRefusal(app: FastifyInstance, request: FastifyRequest): HttpError | null {
  const permission = request.routeOptions.config?.permission;
  if (permission === undefined || permission === 'public') return null;
  const user = request.user;
  if (!user) return unauthenticated();
  const params = (request.params ?? {}) as Record<string, string>;
  const check = resourceChecks.get(app);
  const refusal = (needed: RoutePermission): HttpError | null => {
    if (needed === 'public' || needed === 'signed-in') return null;
    if (typeof needed === 'string') return can(user, needed) ? null : forbidden();
    if ('anyOf' in needed) {
      const refusals = needed.anyOf.map(refusal);
      return refusals.some((r) => r === null) ? null : refusals[0];
    }
    if ('allOf' in needed) return needed.allOf.map(refusal).find((r) => r !== null) ?? null;
    const name = needed.resource.startsWith(':') ? params[needed.resource.slice(1)] : needed.resource;
    const outcome = check && name ? check(user, name, needed.action) : 'unknown';
    return outcome === 'allowed' || outcome === 'unknown' ? null : outcome;
  };
  return refusal(permission);
}
