import type { RouteEntry } from '../../src/server/http/route-permissions.js';

/** The built client's files (system/client-assets.ts and @fastify/static): they answer files, not JSON. */
export const isClientFileRoute = (route: RouteEntry) =>
  route.method === 'GET' && (route.url === '/*' || route.url === '/assets/:name');
