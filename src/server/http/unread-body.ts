import type { FastifyInstance } from 'fastify';

/**
 * An answer given before the request's body was read to its end (an upload refused on its first bytes, its name or
 * its size) would leave the rest of that body in the connection: a keep-alive client's next request would wait
 * behind it and never be read. The rest is read and dropped as the answer goes out, so the connection stays usable.
 */
export function drainUnreadBodies(app: FastifyInstance) {
  app.addHook('onSend', async (request) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed) return;
    // A multipart parser may still be piped from the request (or was unpiped, leaving it paused).
    raw.unpipe();
    raw.resume();
  });
}
