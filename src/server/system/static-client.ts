import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/client');

/**
 * Serves the built client and answers any other non-API GET with index.html so the client's router decides
 * (unknown paths go to its /404 page). API paths keep their JSON 404.
 */
export async function registerStaticClient(app: FastifyInstance) {
  if (!existsSync(path.join(clientDir, 'index.html'))) {
    app.log.warn(`No built client in ${clientDir}: run "npm run build" (npm start does it for you).`);
    return;
  }
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    setHeaders(res, filePath) {
      // Hashed assets never change; index.html must always be revalidated to pick up a deploy.
      res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { config: { public: true } }, (request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url.startsWith('/broadcasting/') || url.startsWith('/sanctum/') || url.startsWith('/app/')) {
      return reply.status(404).send({ message: `No route for ${request.method} ${url}.` });
    }
    return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
