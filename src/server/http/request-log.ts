import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets: a password-reset link's token (the client's /password/update page). */
const SECRET_PARAMETERS = /([?&](?:token|password|password_confirmation)=)[^&#]*/gi;

/** A URL as the log may keep it: the values of secret query parameters replaced. */
export const urlForLog = (url: string) => url.replace(SECRET_PARAMETERS, '$1[redacted]');

/**
 * How a request appears in the log (Fastify's `req` serializer, with the URL's secrets redacted): opening a
 * password-reset link asks the server for /password/update?token=..., and that token must never reach the log.
 */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
