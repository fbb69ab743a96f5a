import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { forbidden, HttpError, notFound, ValidationError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { assertMayManageAccount } from '../users/account-rules.js';
import { hashToken, issueResetLink, RESET_TOKEN_MINUTES } from './password-reset.js';
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

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, sessions, throttle, records, resources, config } = ctx;

  app.post('/api/auth/login', { config: { permission: 'public' } }, async (request, reply) => {
    const body = parseBody(loginBody, request.body);
    const counters = throttle.counters('login', body.email, request.ip);
    const allowance = await throttle.assertAllowed(counters);
    const user = await db
      .selectFrom('users')
      .select(['id', 'password'])
      .where(db.fn('lower', ['email']), '=', body.email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const valid = await verifyPassword(user?.password ?? (await dummyPasswordHash()), body.password);
    if (!user || !valid) {
      await throttle.recordFailure(counters, allowance);
      throw new ValidationError({ email: ['These credentials do not match our records.'] });
    }
    await throttle.clear(counters[0].key);
    await db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', user.id).execute();
    await sessions.start(request, reply, user.id, { remember: body.remember });
    return { data: request.user };
  });

  app.post('/api/auth/logout', { config: { permission: 'public' } }, async (request, reply) => {
    await sessions.end(request, reply);
    return reply.status(204).send();
  });

  app.get('/api/auth/check', { config: { permission: 'signed-in' } }, async (request) => ({ data: request.user }));

  app.post('/api/auth/register', { config: { permission: 'public' } }, async (request, reply) => {
    if (!config.registrationEnabled) throw notFound('Registration is turned off. Ask an administrator for an account.');
    const body = parseBody(registerBody, request.body);
    const role = await db
      .selectFrom('roles')
      .select('id')
      .where('slug', '=', 'user')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const { record } = await records.create(
      null,
      resources.get('users')!,
      { ...body, password_confirmation: undefined, role_id: role?.id ?? null },
      { system: true },
    );
    await sessions.start(request, reply, record.id, { remember: false });
    return reply.status(201).send({ data: request.user });
  });

  // Back to one's own account: the person impersonated may hold no user:impersonate.
  app.post('/api/auth/impersonate/leave', { config: { permission: 'signed-in' } }, async (request, reply) => {
    const me = request.user!;
    if (!me.impersonator) throw new HttpError(400, 'You are not impersonating anyone.');
    await sessions.start(request, reply, me.impersonator.id, { remember: request.session?.remember ?? false });
    return { data: request.user };
  });

  app.post<{ Params: { id: string } }>(
    '/api/auth/impersonate/:id',
    { config: { permission: 'user:impersonate' } },
    async (request, reply) => {
      const me = request.user!;
      const id = Number(request.params.id);
      if (!Number.isInteger(id) || id < 1) throw notFound('No user has that id.');
      if (me.impersonator) throw new HttpError(400, 'Return to your own account before impersonating someone else.');
      if (!can(me, 'user:impersonate')) throw forbidden('You do not have permission to impersonate users.');
      if (id === me.id) throw new HttpError(400, 'You are already signed in as yourself.');
      const target = await db
        .selectFrom('users')
        .select(['id', 'role_id'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!target) throw notFound('No user has that id.');
      // Never into an account whose role holds more than one's own.
      await assertMayManageAccount(db, me, target, 'sign in as');
      await sessions.start(request, reply, id, { remember: false, impersonatorId: me.id });
      return { data: request.user };
    },
  );

  app.post('/api/password/reset', { config: { permission: 'public' } }, async (request) => {
    const body = parseBody(resetBody, request.body);
    const counters = throttle.counters('reset', body.email, request.ip);
    await throttle.assertAllowed(counters);
    await throttle.recordFailure(counters); // every request counts: this stops mail floods, not guessing
    const user = await db
      .selectFrom('users')
      .select(['id', 'first_name'])
      .where(db.fn('lower', ['email']), '=', body.email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (user) {
      // A new link voids every earlier one: only the newest mail works.
      const { link } = await issueResetLink(db, config, body.email);
      await ctx.sendMail({
        to: body.email,
        subject: `Reset your ${config.appName} password`,
        text: `Hello ${user.first_name},\n\nOpen this link to choose a new password (it works once, for ${RESET_TOKEN_MINUTES} minutes):\n${link}\n\nIf you did not ask for this, ignore this mail.`,
      });
    }
    return { message: 'If that address has an account, we have emailed a link to reset the password.' };
  });

  app.post('/api/password/update', { config: { permission: 'public' } }, async (request) => {
    const body = parseBody(updateBody, request.body);
    const invalid = () =>
      new ValidationError({ token: ['This password reset link is invalid or has expired. Ask for a new one.'] });
    const result = await db.transaction().execute(async (trx) => {
      const reset = await trx
        .selectFrom('password_resets')
        .selectAll()
        .where('token_hash', '=', hashToken(body.token))
        .forUpdate()
        .executeTakeFirst();
      if (!reset || reset.used_at || reset.email !== body.email) throw invalid();
      if (Date.now() - new Date(reset.created_at).getTime() > RESET_TOKEN_MINUTES * 60_000) throw invalid();
      // Using a link voids it and every other link of that person.
      await trx.deleteFrom('password_resets').where('email', '=', reset.email).execute();
      return trx
        .selectFrom('users')
        .select('id')
        .where(trx.fn('lower', ['email']), '=', body.email)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    });
    if (!result) throw invalid();
    // The users resource ends every session of the person when their password changes.
    await records.update(null, resources.get('users')!, result.id, { password: body.password }, { system: true });
    return { message: 'Your password has been reset. Sign in with your new password.' };
  });
}
