import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';

/**
 * The origin a configured address loads from, for a CSP source list: `'self'` for a path on this server, the
 * origin of an absolute URL, with a `{s}` (tile subdomain) placeholder as a wildcard subdomain. Null when unset.
 */
export function sourceOf(address: string | undefined): string | null {
  if (!address) return null;
  if (address.startsWith('/') && !address.startsWith('//')) return "'self'";
  const wildcard = address.replace(/\{s\}\./, 'subdomain-placeholder.');
  try {
    const url = new URL(wildcard.replace(/\{[^}]*\}/g, '0'));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.protocol}//${url.host.replace('subdomain-placeholder.', '*.')}`;
  } catch {
    return null;
  }
}

/**
 * Where the browser's realtime connection goes: the Pusher-protocol service's host, or this server at its public
 * address (APP_URL). Never the request's Host header: a header sent by anyone would land in the policy.
 */
function realtimeSources(config: Config): string[] {
  if (config.pusher.external) {
    const scheme = config.pusher.scheme ?? 'https';
    const port = config.pusher.port ? `:${config.pusher.port}` : '';
    // pusher-js speaks WebSocket, and falls back to HTTP streaming and polling on the same host.
    return [
      `${scheme === 'https' ? 'wss' : 'ws'}://${config.pusher.host}${port}`,
      `${scheme}://${config.pusher.host}${port}`,
    ];
  }
  // 'self' covers ws: and wss: of the page's own host in current browsers; the public address is named for older ones.
  const app = new URL(config.appUrl);
  return [`${app.protocol === 'https:' ? 'wss' : 'ws'}://${app.host}`];
}

/**
 * Security headers on every answer (the client's pages, /api, /assets, errors), with @fastify/helmet:
 *
 * - Content-Security-Policy: scripts only from this server, never inline (the built index.html has none); styles
 *   from this server and inline, because MUI's emotion writes <style> elements and Leaflet sets style attributes
 *   (a style cannot run script); images from this server, data: and blob: URLs and the map tile host (TILE_URL) and
 *   logo (LOGO_URL); connections to this server, its realtime websocket at APP_URL (or the PUSHER_HOST service) and
 *   ANALYTICS_URL; the service worker and web app manifest from this server (docs/offline.md); no plugins, no <base>, forms only to this server, and no framing (frame-ancestors 'none').
 * - X-Frame-Options DENY, X-Content-Type-Options nosniff, Referrer-Policy strict-origin-when-cross-origin (tile
 *   servers such as OpenStreetMap's ask for a referrer: the origin is sent, never a path), Cross-Origin-Opener-Policy.
 * - Strict-Transport-Security only on answers over https (behind a proxy: TRUST_PROXY=1), so a plain-http
 *   installation is never pinned to https it does not have.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const present = (sources: Array<string | null>) => [
    ...new Set(sources.filter((source): source is string => Boolean(source))),
  ];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': present(["'self'", 'data:', 'blob:', sourceOf(config.tiles.url), sourceOf(config.links.logoUrl)]),
    'font-src': ["'self'", 'data:'],
    // The offline service worker (/sw.js) and the web app manifest come from this server.
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'connect-src': present(["'self'", sourceOf(config.analyticsUrl), ...realtimeSources(config)]),
  };
  // Made once from the settings: nothing of the request goes into it.
  const policy = Object.entries(directives)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');

  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', policy);
    // request.protocol is the socket's, or X-Forwarded-Proto only from a proxy TRUST_PROXY believes.
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
