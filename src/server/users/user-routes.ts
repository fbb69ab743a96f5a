import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { Accounts } from '../auth/accounts.js';
import { signedInUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { issueResetLink, RESET_TOKEN_MINUTES } from '../auth/password-reset.js';
import { verifyPassword } from '../auth/passwords.js';
import { idParams, noBody } from '../http/contracts.js';
import { fieldError, forbidden } from '../http/errors.js';
import { assertMayManageAccount } from './account-rules.js';

const goalCount = z.number().int().min(0).max(100_000).optional();
const goalsBody = z
  .object({
    period: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The period must be a month like 2026-11.')
      .optional(),
    calls: goalCount,
    meetings: goalCount,
    visits: goalCount,
    recruits: goalCount,
  })
  .strict();

const profileBody = z
  .object({
    first_name: z.string().trim().min(1, 'The first name field is required.').max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
    email: z.string().trim().max(254).email('The email must be a valid email address.').optional(),
    current_password: z.string().max(200).optional(),
    password: z.string().min(8, 'The password must be at least 8 characters.').max(200).optional().or(z.literal('')),
    password_confirmation: z.string().max(200).optional(),
  })
  .passthrough();

const preferenceBody = z
  .object({
    key: z.string().regex(/^[a-z0-9_.:-]{1,100}$/, 'The key must be letters, digits and _.:- (at most 100).'),
    value: z
      .unknown()
      .refine((value) => JSON.stringify(value ?? null).length <= 20_000, 'The preference is too large.'),
  })
  .strict();

const goalsAnswer = z.object({ data: z.record(z.string(), z.unknown()), message: z.string() });

/** A reset link made for someone, shown once. */
const resetLinkAnswer = z.object({
  data: z.object({ link: z.string(), expires_at: z.string() }),
  message: z.string(),
});

/** Routes about users beyond the generic ones: monthly goals, reset links, and one's own profile. */
export function registerUserRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const users = ctx.resources.get('users')!;
  const accounts = new Accounts(ctx.db);

  // Goals are kept per month (`period`), with `default` for months that have none.
  app.post(
    '/api/users/:id/goals',
    {
      schema: { params: idParams, body: goalsBody, response: { 200: goalsAnswer } },
      config: { permission: { resource: 'users', action: 'update' } },
    },
    async (request) => {
      const current = await ctx.records.show(request.user, users, request.params.id);
      const { period = 'default', ...counts } = request.body;
      const goals = { ...(current.goals ?? {}), [period]: { ...(current.goals?.[period] ?? {}), ...counts } };
      const { record } = await ctx.records.update(request.user, users, request.params.id, { goals });
      return { data: record.goals, message: 'Goals updated successfully.' };
    },
  );

  // A password reset link made by someone who may set the person's password, for when no mail server is set or the
  // mail does not arrive: shown to them once, never logged, and it voids the person's earlier links.
  app.post(
    '/api/users/:id/password-reset-link',
    {
      schema: { params: idParams, body: noBody, response: { 200: resetLinkAnswer } },
      config: { permission: { resource: 'users', action: 'update' } },
    },
    async (request, reply) => {
      const me = request.user!;
      const user = await ctx.records.show(me, users, request.params.id);
      if (!can(me, 'user:update')) throw forbidden("You do not have permission to reset users' passwords.");
      await assertMayManageAccount(ctx.db, me, user, 'make a password reset link for');
      const { link, expiresAt } = await issueResetLink(ctx.db, ctx.config, String(user.email).toLowerCase());
      request.log.info({ by: me.id, for: user.id }, 'Password reset link made');
      reply.header('Cache-Control', 'no-store');
      return {
        data: { link, expires_at: expiresAt.toISOString() },
        message: `This link lets ${user.first_name} choose a new password once, within ${RESET_TOKEN_MINUTES} minutes. Earlier links no longer work.`,
      };
    },
  );

  // One preference of one's own (a list's columns): null removes it. Written through the users resource like the profile.
  app.post(
    '/api/profile/preferences',
    {
      schema: { body: preferenceBody, response: { 200: z.object({ data: z.record(z.string(), z.unknown()) }) } },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const me = request.user!;
      const { key, value } = request.body;
      const preferences = { ...(me.preferences ?? {}) };
      if (value === null || value === undefined) delete preferences[key];
      else preferences[key] = value;
      await ctx.records.update(me, users, me.id, { preferences }, { system: true });
      return { data: preferences };
    },
  );

  app.post(
    '/api/profile',
    {
      schema: { body: profileBody, response: { 200: z.object({ data: signedInUser, message: z.string() }) } },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const me = request.user!;
      const body = request.body;
      const changes: Record<string, unknown> = {};
      for (const key of ['first_name', 'last_name', 'email'] as const)
        if (body[key] !== undefined) changes[key] = body[key];
      if (body.password) {
        if (body.password !== body.password_confirmation)
          throw fieldError('password_confirmation', 'The password confirmation does not match.');
        if (
          !body.current_password ||
          !(await verifyPassword(await accounts.passwordOf(me.id), body.current_password))
        ) {
          throw fieldError('current_password', 'The current password is incorrect.');
        }
        changes.password = body.password;
      }
      // A new password ends the person's other sessions (users resource).
      await ctx.records.update(me, users, me.id, changes, { system: true });
      const data = await loadAuthUser(ctx.db, me.id, me.impersonator?.id ?? null);
      return { data: data!, message: 'Settings updated successfully.' };
    },
  );
}
