import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { answer, idParams, messageAnswer, noBody, recordAnswer, rowWith } from '../http/contracts.js';
import { conflict, forbidden, HttpError } from '../http/errors.js';
import { socketOf } from '../records/routes.js';
import { suggestions } from './builtin/capabilities.js';
import { warmedUp, warmVocabulary } from './builtin/vocabulary.js';
import { assertEnabled, assertMayAsk } from './limits.js';
import { testConnection } from './model/connection-test.js';
import { applyProposal } from './proposals.js';
import {
  DEFAULT_THREAD_TITLE,
  assistantMessagesResource as messages,
  type Proposal,
  assistantThreadsResource as threads,
} from './resources.js';
import { AssistantRunner, BUILT_IN_MODEL } from './runner.js';
import { createScope, type RecordRef } from './tools/scope.js';

const contextShape = z
  .object({ type: z.string().max(60), id: z.coerce.number().int().positive() })
  .strict()
  .nullable()
  .optional();
const questionShape = z
  .object({
    thread_id: z.coerce.number().int().positive(),
    content: z
      .string()
      .trim()
      .min(1, 'Ask a question.')
      .max(4_000, 'A question may not be longer than 4000 characters.'),
    context: contextShape,
  })
  .strict();

/** The record a question is asked from, as the person may read it; anything else is no context at all. */
async function contextOf(
  ctx: AppContext,
  user: AuthUser,
  context: { type: string; id: number } | null | undefined,
): Promise<RecordRef | null> {
  if (!context) return null;
  const scope = await createScope(ctx, user);
  const info = scope.typeOf(context.type);
  if (!info) return null;
  const row = await ctx.records.show(user, info.def, context.id).catch(() => null);
  if (!row) return null;
  const { label, url } = scope.cite(info, row);
  return { type: info.type, id: row.id, label, url };
}

/**
 * The assistant's own routes (docs/assistant.md); threads and messages are otherwise served by the generic routes.
 * - POST /api/assistant/messages `{thread_id, content, context?}`: the person's question (201); the answer follows as
 *   `AssistantMessage` events on their private channel, then is saved as a message.
 * - POST /api/assistant/messages/{id}/stop: stop the answer to question {id}.
 * - POST /api/assistant/messages/{id}/approve | reject: the proposal on answer {id}.
 * - GET /api/assistant/status: built-in or model, and suggested questions (`?context_type=&context_id=`).
 * - POST /api/assistant/test-connection: an administrator's check of the model (needs `feature:update`).
 */
const statusQuery = z.object({
  context_type: z.string().max(60).optional(),
  context_id: z.coerce.number().int().positive().optional(),
});

const statusAnswer = answer(
  z.object({
    mode: z.string().describe('model or built-in'),
    model: z.string(),
    base_url: z.string().nullable().optional(),
    context: z
      .object({ type: z.string(), id: z.number().int(), label: z.string().optional(), url: z.string().optional() })
      .nullable(),
    suggestions: z.array(z.string()),
  }),
);

const connectionAnswer = answer(
  rowWith({ ok: z.boolean(), steps: z.array(rowWith({ name: z.string() })), elapsed_ms: z.number() }),
);

/** Sign-in, a page's start request and the assistant's status (asked when the chat opens). */
const WARM_AFTER = new Set(['/api/auth/login', '/api/bootstrap', '/api/assistant/status']);

export function registerAssistantRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const runner = new AssistantRunner(ctx, app.log);
  app.decorate('assistant', runner);
  app.addHook('preClose', async () => {
    runner.stopAll();
    await runner.idle();
    await warmedUp(ctx);
  });
  // A person who signs in, loads a page or opens the assistant has their vocabulary built before their first question
  // (started before the answer goes out, so whoever waits for the server's background work waits for it too).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.user && reply.statusCode < 400 && WARM_AFTER.has(request.routeOptions.url ?? ''))
      warmVocabulary(ctx, request.user);
    return payload;
  });

  // A message of the person's own (anyone else's answers as if it did not exist).
  const ownMessage = { permission: { resource: 'assistant/messages', action: 'read' } } as const;

  app.post(
    '/api/assistant/messages',
    {
      schema: { body: questionShape, response: { 201: recordAnswer, 409: messageAnswer, 429: messageAnswer } },
      config: { permission: { resource: 'assistant/messages', action: 'create' } },
    },
    async (request, reply) => {
      const user = request.user!;
      ctx.records.authorize(user, messages, 'create');
      await assertEnabled(ctx);
      const body = request.body;
      const thread = await ctx.records.show(user, threads, body.thread_id);
      if (runner.busy(thread.id))
        throw conflict('The assistant is still answering in this conversation. Wait for the answer or press Stop.');
      await assertMayAsk(ctx, user);
      const context = await contextOf(ctx, user, body.context);
      const { record, message } = await ctx.records.create(
        user,
        messages,
        { thread_id: thread.id, role: 'user', content: body.content, context },
        { socketId: socketOf(request) },
      );
      void runner.start(user, { id: record.id, thread_id: thread.id, content: body.content }, context);
      // A new conversation is named after its first question before this answers, so that whoever reads the
      // conversation after asking sees its name (a read already under way when the answer is done would not).
      if (thread.title === DEFAULT_THREAD_TITLE) {
        const title = body.content.length > 80 ? `${body.content.slice(0, 77)}...` : body.content;
        await ctx.records.update(user, threads, thread.id, { title }, { system: true });
      }
      return reply.status(201).send({ data: record, message });
    },
  );

  app.post(
    '/api/assistant/messages/:id/stop',
    {
      schema: { params: idParams, body: noBody, response: { 200: answer(z.object({ stopped: z.boolean() })) } },
      config: ownMessage,
    },
    async (request) => {
      const question = await ctx.records.show(request.user, messages, request.params.id);
      return { data: { stopped: runner.stop(request.user!, question.id) } };
    },
  );

  const decide =
    (decision: 'approve' | 'reject') => async (request: { user: AuthUser | null; params: { id: number } }) => {
      const user = request.user!;
      const message = await ctx.records.show(user, messages, request.params.id);
      const proposal = message.proposal as Proposal | null;
      if (!proposal) throw new HttpError(422, 'This message proposes no change.');
      if (proposal.status !== 'pending') throw conflict(`This change was already ${proposal.status}.`);
      const save = (next: Proposal, version?: unknown) =>
        ctx.records.update(
          user,
          messages,
          message.id,
          { proposal: next, ...(version ? { updated_at: version } : {}) },
          { system: true },
        );
      if (decision === 'reject') {
        const { record } = await save({ ...proposal, status: 'rejected', error: null }, message.updated_at);
        return { data: record, message: 'Change rejected. Nothing was written.' };
      }
      // Claimed first, so two clicks cannot apply it twice; given back when the write is refused.
      await save({ ...proposal, status: 'approved', error: null }, message.updated_at);
      try {
        const result = await applyProposal(ctx, user, proposal);
        const { record } = await save({ ...proposal, status: 'approved', result, error: null });
        return { data: record, message: `Done: ${proposal.summary}` };
      } catch (error) {
        const reason =
          error instanceof HttpError
            ? (error as HttpError & { errors?: Record<string, string[]> }).errors
              ? Object.values((error as any).errors)
                  .flat()
                  .join(' ')
              : error.message
            : 'The change could not be made.';
        await save({ ...proposal, status: 'pending', error: reason.slice(0, 1_000) });
        throw error;
      }
    };
  for (const decision of ['approve', 'reject'] as const)
    app.post(
      `/api/assistant/messages/:id/${decision}`,
      {
        schema: { params: idParams, body: noBody, response: { 200: recordAnswer, 409: messageAnswer } },
        config: ownMessage,
      },
      decide(decision),
    );

  app.get(
    '/api/assistant/status',
    {
      schema: { querystring: statusQuery, response: { 200: statusAnswer } },
      config: { permission: { resource: 'assistant/threads', action: 'read' } },
    },
    async (request) => {
      const user = request.user!;
      ctx.records.authorize(user, threads, 'read');
      const query = request.query;
      const settings = runner.modelSettings();
      const context =
        query.context_type && query.context_id
          ? await contextOf(ctx, user, { type: query.context_type, id: query.context_id })
          : null;
      const scope = await createScope(ctx, user, context);
      const admin = can(user, 'feature:update');
      return {
        data: {
          mode: settings ? 'model' : 'built-in',
          model: settings?.model ?? BUILT_IN_MODEL,
          ...(admin ? { base_url: settings?.baseUrl ?? null } : {}),
          context,
          suggestions: await suggestions(scope),
        },
      };
    },
  );

  app.post(
    '/api/assistant/test-connection',
    { schema: { body: noBody, response: { 200: connectionAnswer } }, config: { permission: 'feature:update' } },
    async (request) => {
      if (!can(request.user, 'feature:update'))
        throw forbidden('Only an administrator may test the assistant connection.');
      const started = Date.now();
      const result = await testConnection(runner.modelSettings());
      return { data: { ...result, elapsed_ms: Date.now() - started } };
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The assistant's runs of this process (tests wait for them with `assistant.idle()`). */
    assistant: AssistantRunner;
  }
}
