import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { noQuery } from '../http/contracts.js';
import { HttpError } from '../http/errors.js';
import { sameSecret } from './same-secret.js';
import type { SessionStore } from './sessions.js';

export const CSRF_COOKIE = 'XSRF-TOKEN';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Hands the browser a CSRF token in the readable XSRF-TOKEN cookie its client echoes in X-XSRF-TOKEN. */
export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: request.protocol === 'https',
  });
}

/**
 * CSRF as Laravel Sanctum does it: GET /sanctum/csrf-cookie sets a readable XSRF-TOKEN cookie and every unsafe
 * request must echo it in X-XSRF-TOKEN, else 419. With a session the token must be that session's own
 * (SessionStore.csrfToken: issued at sign-in, different for every session), so a cookie and header pair made by
 * someone else does not pass with a victim's session cookie. Requests with a personal access token need none
 * (tokens/token-requests.ts). Signed out (sign-in, password reset) the pair only has
 * to match.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers only to a message signed with its own secret and uses no session: no CSRF token is asked. */
    signedNotSession?: boolean;
  }
}

export function registerCsrf(app: FastifyInstance, sessions: SessionStore) {
  app.get(
    '/sanctum/csrf-cookie',
    { schema: { querystring: noQuery, response: { 204: z.null() } }, config: { permission: 'public' } },
    async (request, reply) => {
      const sent = request.cookies[CSRF_COOKIE];
      const token = request.session
        ? sessions.csrfToken(request.session.id)
        : sent && isWellFormed(sent)
          ? sent
          : randomBytes(32).toString('base64url');
      setCsrfCookie(request, reply, token);
      return reply.status(204).send();
    },
  );

  app.addHook('onRequest', async (request: FastifyRequest) => {
    // A bearer token is sent by a script on purpose, never by a browser by itself: no CSRF to guard against.
    if (!UNSAFE.has(request.method) || request.token) return;
    // A route that reads no cookie and checks its own signature (an automation's incoming webhook): nothing to forge.
    if (request.routeOptions.config?.signedNotSession) return;
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers['x-xsrf-token'];
    const sent = typeof header === 'string' ? safeDecode(header) : '';
    const bound = !request.session || sameSecret(sent, sessions.csrfToken(request.session.id));
    if (!cookie || !sent || !sameSecret(sent, cookie) || !bound) {
      throw new HttpError(419, 'CSRF token mismatch. Refresh the page and try again.');
    }
  });
}

const isWellFormed = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

function safeDecode(value: string) {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}
