import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionStore } from '../auth/sessions.js';
import { forbidden, HttpError, unauthenticated } from '../http/errors.js';
import { writes } from './abilities.js';
import { bearerOf, type TokenStore } from './token-store.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Routes a token never reaches: signing in and out, impersonation, passwords, the profile's writes and the tokens
 * themselves. A stolen token must not make a longer-lived or wider one, nor take over the account.
 */
function accountRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? request.url;
  if (url === '/api/auth/check' && request.method === 'GET') return false;
  if (url.startsWith('/api/auth/') || url.startsWith('/api/password/') || url.startsWith('/api/tokens')) return true;
  return url.startsWith('/api/profile') && UNSAFE.has(request.method);
}

/**
 * Who makes each request (before CSRF and the sign-in check): `Authorization: Bearer <token>` signs it in with a
 * personal access token (token-store.ts), rate-limited per token (TOKEN_RATE_LIMIT a minute) and kept out of the
 * account routes and, without a write ability, of every write; otherwise the session cookie does (auth/sessions.ts).
 */
export async function registerRequestAuth(
  app: FastifyInstance,
  options: { sessions: SessionStore; tokens: TokenStore; perMinute: number },
) {
  await app.register(fastifyRateLimit, { global: false });
  const limit = app.createRateLimit({
    max: options.perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `token:${request.token?.id}`,
  });
  app.decorateRequest('token', null);
  app.addHook('onRequest', async (request) => {
    request.token = null;
    // A page load asks for a hundred assets; reading the session for each was a database read each on PostgreSQL.
    if (request.routeOptions.config?.session === false) {
      request.session = null;
      request.user = null;
      return;
    }
    // Tokens sign in to the API; `GET /metrics` reads its own bearer (METRICS_TOKEN), which is no person's token.
    const bearer = request.url.startsWith('/api/') ? bearerOf(request) : undefined;
    if (bearer === undefined) return options.sessions.resume(request);
    request.session = null;
    request.user = null;
    if (!bearer) throw unauthenticated();
    const token = await options.tokens.authenticate(request, bearer);
    const limited = await limit(request);
    if (!limited.isAllowed && limited.isExceeded) {
      throw new HttpError(429, `Too many requests with this token. Try again in ${limited.ttlInSeconds} seconds.`, {
        'Retry-After': String(limited.ttlInSeconds),
      });
    }
    if (accountRoute(request)) throw forbidden('Sign in to manage your account and its tokens.');
    if (UNSAFE.has(request.method) && !writes(token.abilities)) {
      throw forbidden('This token may only read.');
    }
  });
}
