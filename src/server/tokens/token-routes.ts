import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { idParams, timestamp } from '../http/contracts.js';
import { fieldError, forbidden, notFound } from '../http/errors.js';
import { ability, abilityType } from './abilities.js';

/** Managing another person's tokens (listing, revoking) is for those who manage accounts. */
const MANAGE_ACCOUNTS = 'user:update';

const tokenBody = z
  .object({
    name: z.string().trim().min(1, 'The name field is required.').max(100, 'The name may be at most 100 characters.'),
    abilities: z.array(ability).min(1, 'Give the token at least one ability.').max(100).default(['*']),
    expires_at: z.iso
      .datetime({ offset: true, error: 'The expiry must be a date and time (ISO 8601).' })
      .nullable()
      .optional()
      .describe('When the token stops working; none (null) for never.'),
  })
  .strict();

const token = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    name: z.string(),
    abilities: z.array(z.string()),
    expires_at: timestamp.nullable(),
    last_used_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'PersonalAccessToken', description: 'A personal access token, without the token itself.' });

const createdAnswer = z.object({
  data: token,
  plain_text_token: z
    .string()
    .describe('The token, `<id>|<secret>`: shown this once. Send it as Authorization: Bearer.'),
  message: z.string(),
});

const listQuery = z.object({
  user_id: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe("Another person's tokens."),
});

/**
 * POST, GET /api/tokens and DELETE /api/tokens/{id}: a signed-in person's personal access tokens (docs/api.md
 * "Personal access tokens"). Made and revoked by their owner; listed and revoked by those who manage accounts too.
 * Token requests never reach these routes (token-requests.ts).
 */
export function registerTokenRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/tokens',
    {
      schema: { body: tokenBody, response: { 201: createdAnswer } },
      config: { permission: 'signed-in' },
    },
    async (request, reply) => {
      const me = request.user!;
      if (me.impersonator) throw forbidden('Tokens are made by their owner, not while impersonating.');
      const { name, abilities, expires_at } = request.body;
      const unknown = abilities.map(abilityType).find((type) => type !== null && !ctx.resources.get(type));
      if (unknown) throw fieldError('abilities', `There is no record type "${unknown}".`);
      const expires = expires_at ? new Date(expires_at) : null;
      if (expires && expires.getTime() <= Date.now())
        throw fieldError('expires_at', 'The expiry must be in the future.');
      const made = await ctx.tokens.create(me.id, { name, abilities, expires_at: expires });
      reply.status(201);
      return {
        data: made.row,
        plain_text_token: made.plainTextToken,
        message: 'Token created. Copy it now: it will not be shown again.',
      };
    },
  );

  app.get(
    '/api/tokens',
    {
      schema: { querystring: listQuery, response: { 200: z.object({ data: z.array(token) }) } },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const me = request.user!;
      const userId = request.query.user_id ?? me.id;
      if (userId !== me.id && !can(me, MANAGE_ACCOUNTS)) throw forbidden();
      return { data: await ctx.tokens.list(userId) };
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      schema: { params: idParams, response: { 200: z.object({ message: z.string() }) } },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const me = request.user!;
      const found = await ctx.tokens.find(request.params.id);
      if (!found) throw notFound('No such token.');
      // Another person's token is not there for whoever may not manage accounts.
      if (found.user_id !== me.id && !can(me, MANAGE_ACCOUNTS)) throw notFound('No such token.');
      await ctx.tokens.revoke(found.id);
      return { message: 'Token revoked.' };
    },
  );
}
