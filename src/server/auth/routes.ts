import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { messageAnswer, noBody, noQuery } from '../http/contracts.js';
import { forbidden, HttpError, notFound, ValidationError } from '../http/errors.js';
import { assertMayManageAccount } from '../users/account-rules.js';
import { Accounts } from './accounts.js';
import { signedInUser } from './auth-user.js';
import { issueResetLink, RESET_TOKEN_MINUTES } from './password-reset.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';

const email = z.string().trim().toLowerCase().max(254).email('Enter a valid email address.');
const newPassword = z
  .string()
  .min(8, 'The password must be at least 8 characters.')
  .max(200, 'The password may not be longer than 200 characters.');
const confirmed = <T extends { password: string; password_confirmation: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== value.password_confirmation)
    ctx.addIssue({
      code: 'custom',
      path: ['password_confirmation'],
      message: 'The password confirmation does not match.',
    });
};

const loginBody = z
  .object({
    email,
    password: z.string().min(1, 'Enter your password.').max(200),
    remember: z.boolean().optional().default(false),
  })
  .strict();
const resetBody = z.object({ email }).strict();
const updateBody = z
  .object({
    token: z.string().min(10).max(200),
    email,
    password: newPassword,
    password_confirmation: z.string().max(200),
  })
  .strict()
  .superRefine(confirmed);
const registerBody = z
  .object({
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().max(100).default(''),
    email,
    password: newPassword,
    password_confirmation: z.string().max(200),
  })
  .strict()
  .superRefine(confirmed);

const signedInAnswer = z.object({ data: signedInUser });
const throttled = { 429: messageAnswer };

export function registerAuthRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { sessions, throttle, records, resources, config } = ctx;
  const accounts = new Accounts(ctx.db);

  app.post(
    '/api/auth/login',
    {
      schema: { body: loginBody, response: { 200: signedInAnswer, ...throttled } },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const body = request.body;
      const counters = throttle.counters('login', body.email, request.ip);
      const allowance = await throttle.assertAllowed(counters);
      const user = await accounts.findByEmail(body.email);
      const valid = await verifyPassword(user?.password ?? (await dummyPasswordHash()), body.password);
      if (!user || !valid) {
        await throttle.recordFailure(counters, allowance);
        throw new ValidationError({ email: ['These credentials do not match our records.'] });
      }
      await throttle.clear(counters[0].key);
      await accounts.signedIn(user.id);
      await sessions.start(request, reply, user.id, { remember: body.remember });
      return { data: request.user! };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { body: noBody, response: { 204: z.null() } }, config: { permission: 'public' } },
    async (request, reply) => {
      await sessions.end(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/check',
    { schema: { querystring: noQuery, response: { 200: signedInAnswer } }, config: { permission: 'signed-in' } },
    async (request) => ({ data: request.user! }),
  );

  app.post(
    '/api/auth/register',
    { schema: { body: registerBody, response: { 201: signedInAnswer } }, config: { permission: 'public' } },
    async (request, reply) => {
      if (!config.registrationEnabled)
        throw notFound('Registration is turned off. Ask an administrator for an account.');
      const { password_confirmation: _, ...fields } = request.body;
      const { record } = await records.create(
        null,
        resources.get('users')!,
        { ...fields, role_id: await accounts.registrationRoleId() },
        { system: true },
      );
      await sessions.start(request, reply, record.id, { remember: false });
      return reply.status(201).send({ data: request.user! });
    },
  );

  // Back to one's own account: the person impersonated may hold no user:impersonate.
  app.post(
    '/api/auth/impersonate/leave',
    {
      schema: { body: noBody, response: { 200: signedInAnswer, 400: messageAnswer } },
      config: { permission: 'signed-in' },
    },
    async (request, reply) => {
      const me = request.user!;
      if (!me.impersonator) throw new HttpError(400, 'You are not impersonating anyone.');
      await sessions.start(request, reply, me.impersonator.id, { remember: request.session?.remember ?? false });
      return { data: request.user! };
    },
  );

  app.post(
    '/api/auth/impersonate/:id',
    {
      // Any text: an id that is no user's is a 404, as a missing one is.
      schema: {
        params: z.object({ id: z.string() }),
        body: noBody,
        response: { 200: signedInAnswer, 400: messageAnswer },
      },
      config: { permission: 'user:impersonate' },
    },
    async (request, reply) => {
      const me = request.user!;
      const id = Number(request.params.id);
      if (!Number.isInteger(id) || id < 1) throw notFound('No user has that id.');
      if (me.impersonator) throw new HttpError(400, 'Return to your own account before impersonating someone else.');
      if (!can(me, 'user:impersonate')) throw forbidden('You do not have permission to impersonate users.');
      if (id === me.id) throw new HttpError(400, 'You are already signed in as yourself.');
      const target = await accounts.findById(id);
      if (!target) throw notFound('No user has that id.');
      // Never into an account whose role holds more than one's own.
      await assertMayManageAccount(ctx.db, me, target, 'sign in as');
      await sessions.start(request, reply, id, { remember: false, impersonatorId: me.id });
      return { data: request.user! };
    },
  );

  app.post(
    '/api/password/reset',
    { schema: { body: resetBody, response: { 200: messageAnswer, ...throttled } }, config: { permission: 'public' } },
    async (request) => {
      const body = request.body;
      const counters = throttle.counters('reset', body.email, request.ip);
      await throttle.assertAllowed(counters);
      await throttle.recordFailure(counters); // every request counts: this stops mail floods, not guessing
      const user = await accounts.findByEmail(body.email);
      if (user) {
        // A new link voids every earlier one: only the newest mail works.
        const { link } = await issueResetLink(ctx.db, config, body.email);
        await ctx.sendMail({
          to: body.email,
          subject: `Reset your ${config.appName} password`,
          text: `Hello ${user.first_name},\n\nOpen this link to choose a new password (it works once, for ${RESET_TOKEN_MINUTES} minutes):\n${link}\n\nIf you did not ask for this, ignore this mail.`,
        });
      }
      return { message: 'If that address has an account, we have emailed a link to reset the password.' };
    },
  );

  app.post(
    '/api/password/update',
    { schema: { body: updateBody, response: { 200: messageAnswer } }, config: { permission: 'public' } },
    async (request) => {
      const body = request.body;
      const id = await accounts.useResetToken(body.token, body.email);
      if (id === null)
        throw new ValidationError({
          token: ['This password reset link is invalid or has expired. Ask for a new one.'],
        });
      // The users resource ends every session of the person when their password changes.
      await records.update(null, resources.get('users')!, id, { password: body.password }, { system: true });
      return { message: 'Your password has been reset. Sign in with your new password.' };
    },
  );
}
