import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT } from '../config/paths.js';
import { registerClientAssets } from './client-assets.js';
import { shellScripts } from './client-manifest.js';

export const clientDir = path.join(PROJECT_ROOT, 'dist/client');
const SERVER_PATHS = /^\/(api|broadcasting|sanctum|app)(\/|$)/;

/**
 * Serves the built client: its hashed assets from a listing kept in memory (client-assets.ts), its other files
 * looked up at request time; a rebuild is served without a restart. Any other GET outside the server's own paths gets
 * index.html (public-form.html under /f/) so the client's router decides (unknown paths go to its /404 page). Server
 * paths keep their JSON 404.
 *
 * The build writes a brotli and a gzip copy beside each text file (src/build/precompress.ts); the one the browser
 * accepts is sent with `Content-Encoding` and `Vary: Accept-Encoding`, the plain file otherwise.
 */
export async function registerStaticClient(app: FastifyInstance, root = clientDir) {
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`No built client in ${root}: run "npm run build" (npm start does it for you).`);
  }
  registerClientAssets(app, root);
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    setHeaders(res, filePath) {
      // Hashed assets never change; index.html must always be revalidated to pick up a deploy.
      res.header(
        'Cache-Control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // The page of a signed-in person names the signed-in shell's scripts (layout and dashboard): the browser fetches
  // them beside the first chunk instead of after it has run.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.user && String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      const scripts = shellScripts(root);
      if (scripts.length) reply.header('Link', scripts.map((script) => `<${script}>; rel=modulepreload`).join(', '));
    }
    return payload;
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !SERVER_PATHS.test(url) && !path.extname(url);
    // A public form (/f/{slug}) has its own small page; every other path is the app's.
    const file = url.startsWith('/f/') ? 'public-form.html' : 'index.html';
    if (wantsPage && existsSync(path.join(root, file))) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile(file);
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${url}.` });
  });
}
