import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';

export const CSRF_COOKIE = 'XSRF-TOKEN';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Double-submit CSRF as Laravel Sanctum does it: GET /sanctum/csrf-cookie sets a readable XSRF-TOKEN cookie
 * and every unsafe request must echo it in X-XSRF-TOKEN, else 419.
 */
export function registerCsrf(app: FastifyInstance) {
  app.get('/sanctum/csrf-cookie', { config: { public: true } }, async (request, reply) => {
    const token = request.cookies[CSRF_COOKIE] && isWellFormed(request.cookies[CSRF_COOKIE]) ? request.cookies[CSRF_COOKIE] : randomBytes(32).toString('base64url');
    reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', httpOnly: false, secure: request.protocol === 'https' });
    return reply.status(204).send();
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!UNSAFE.has(request.method)) return;
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers['x-xsrf-token'];
    const sent = typeof header === 'string' ? safeDecode(header) : '';
    if (!cookie || !sent || !equal(cookie, sent)) {
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

function equal(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
