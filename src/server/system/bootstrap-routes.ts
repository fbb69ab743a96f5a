import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { signedInUser } from '../auth/auth-user.js';
import { noQuery, record } from '../http/contracts.js';
import { HttpError } from '../http/errors.js';
import { deployVersion, systemConfig, systemConfigShape } from './system-routes.js';

/** What GET /api/bootstrap answers: the start-up parts below, each as its own endpoint answers it. */
const bootstrapAnswer = z.object({
  data: z.object({
    config: systemConfigShape,
    user: signedInUser.nullable(),
    features: z.array(record).optional(),
    schemas: z.array(record).optional(),
  }),
});

/**
 * GET /api/bootstrap: what the signed-in shell needs before its first screen, in one answer, so the page asks for it
 * once, from index.html, before the app's code has loaded (docs/client.md, Start-up). The same parts the client
 * otherwise asks for one by one, through the same services and permission checks:
 *
 * - `config`: GET /api/system/config (public);
 * - `user`: GET /api/auth/check's person, or null when nobody is signed in (200 either way: a signed-out visitor is
 *   an answer here, not an error);
 * - `features` and `schemas`: GET /api/features and /api/schemas with per_page=-1, signed in only, each left out when
 *   the person may not read it (the client then asks that endpoint itself and gets its 403).
 */
export function registerBootstrapRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config, records, resources } = ctx;
  const publicConfig = systemConfig(config, deployVersion(config.version));

  const listAll = async (request: FastifyRequest, name: 'features' | 'schemas') => {
    try {
      return (await records.list(request.user, resources.get(name)!, { per_page: -1 })).data;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 403) return undefined;
      throw error;
    }
  };

  app.get(
    '/api/bootstrap',
    { schema: { querystring: noQuery, response: { 200: bootstrapAnswer } }, config: { permission: 'public' } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const answer = { config: publicConfig, user: request.user ?? null };
      if (!request.user) return { data: answer };
      const [features, schemas] = await Promise.all([listAll(request, 'features'), listAll(request, 'schemas')]);
      return { data: { ...answer, ...(features ? { features } : {}), ...(schemas ? { schemas } : {}) } };
    },
  );
}
