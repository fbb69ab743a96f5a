import { z } from 'zod';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';

/**
 * Conversations with the assistant (SPEC 7: assistant/threads (r), assistant/messages (r)). Both are private to
 * their maker: `ownerColumn` makes every read, write and realtime event the owner's alone, and anyone else (an
 * administrator included) gets 404, as for a record that does not exist.
 */
export const DEFAULT_THREAD_TITLE = 'New conversation';

export const assistantThreadsResource: ResourceDefinition = {
  name: 'assistant/threads',
  type: 'assistant-thread',
  table: 'assistant_threads',
  singular: 'Conversation',
  fields: {
    title: { kind: 'text', max: 200 },
    last_message_at: { kind: 'datetime', label: 'last message' },
    user_id: { kind: 'integer', min: 1, label: 'owner' },
  },
  readOnly: ['user_id'],
  search: ['title'],
  defaultSort: { field: 'last_message_at', order: 'desc' },
  softDelete: true,
  restorable: true,
  ownerColumn: 'user_id',
  hooks: {
    beforeWrite(values, ctx) {
      if (ctx.action === 'create') {
        values.user_id = ctx.user?.id ?? null;
        values.title = values.title || DEFAULT_THREAD_TITLE;
        values.last_message_at ??= new Date().toISOString();
      } else if ('title' in values && !values.title) {
        throw fieldError('title', 'The title field is required.');
      }
      return values;
    },
  },
};

const citation = z
  .object({ type: z.string().max(60), id: z.number().int(), label: z.string().max(300), url: z.string().max(500) })
  .strict();
const recordRef = z
  .object({
    type: z.string().max(60),
    id: z.number().int().positive(),
    label: z.string().max(300).optional(),
    url: z.string().max(500).optional(),
  })
  .strict();

export const PROPOSAL_KINDS = ['create_task', 'log_note', 'update_field', 'assign'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/** A change the assistant proposes: `write` is exactly what approving writes through the record service. */
export const proposalShape = z
  .object({
    kind: z.enum(PROPOSAL_KINDS),
    summary: z.string().max(1_000),
    /** The record written: created (`action: create`, no id) or updated. */
    write: z
      .object({
        action: z.enum(['create', 'update']),
        type: z.string().max(60),
        id: z.number().int().positive().optional(),
        values: z.record(z.string(), z.unknown()),
      })
      .strict(),
    /** Label and link of the record the change is about (shown on the card). */
    record: recordRef.nullable().optional(),
    /** Each value as the card shows it: [label, before, after]. */
    lines: z.array(z.tuple([z.string().max(100), z.string().max(1_000).nullable(), z.string().max(2_000)])).max(20),
    status: z.enum(['pending', 'approved', 'rejected']),
    result: recordRef.nullable().optional(),
    error: z.string().max(1_000).nullable().optional(),
  })
  .strict();
export type Proposal = z.infer<typeof proposalShape>;

export type Citation = z.infer<typeof citation>;

const words = z.array(z.string().max(400)).max(30);
/**
 * The list an answer counted or listed, kept with the answer: a follow-up ("of those, which are union") refines it,
 * "Save as view" saves it. `filter` as the list query takes it (`type`, `region_ids`, `bid_date_gte`...), `filters`
 * the same as the view filter structure (filters/filter-tree.ts); `words` how the answer described it, each word with
 * the filter keys it stands for, so a follow-up that changes a key drops the words of the old value.
 */
export const answerListShape = z
  .object({
    type: z.string().max(60),
    mode: z.enum(['count', 'list', 'group']),
    title: z.string().max(400),
    filter: z.record(z.string().max(100), z.unknown()),
    filters: z.record(z.string().max(10), z.unknown()),
    words: z
      .object({
        adjectives: words,
        qualifiers: words,
        sources: z.record(z.string().max(400), z.array(z.string().max(100)).max(20)).optional(),
      })
      .strict(),
    group_by: z.record(z.string().max(40), z.unknown()).optional(),
    measure: z
      .object({ fn: z.enum(['sum', 'avg']), field: z.string().max(100), words: z.string().max(200) })
      .strict()
      .optional(),
  })
  .strict();
export type AnswerList = z.infer<typeof answerListShape>;

/**
 * One message of a thread. Created by the person (POST /api/assistant/messages, role `user`) or by the assistant on
 * their behalf (role `assistant` and `tool`); never edited through the API (`ownRoutes`): approving or rejecting a
 * proposal has its own routes.
 */
export const assistantMessagesResource: ResourceDefinition = {
  name: 'assistant/messages',
  type: 'assistant-message',
  table: 'assistant_messages',
  singular: 'Message',
  fields: {
    thread_id: { kind: 'integer', required: true, min: 1, label: 'conversation' },
    role: { kind: 'enum', required: true, options: ['user', 'assistant', 'tool'] },
    content: { kind: 'text', max: 40_000 },
    reply_to: { kind: 'integer', min: 1, label: 'question' },
    status: { kind: 'enum', options: ['complete', 'stopped', 'failed'] },
    outcome: { kind: 'enum', options: ['answered', 'refused', 'failed'] },
    context: { kind: 'json', max: 2_000, shape: recordRef.nullable(), sortable: false, filterable: false },
    citations: { kind: 'json', max: 100_000, shape: z.array(citation).max(200), sortable: false, filterable: false },
    proposal: { kind: 'json', max: 20_000, shape: proposalShape.nullable(), sortable: false, filterable: false },
    list: { kind: 'json', max: 20_000, shape: answerListShape.nullable(), sortable: false, filterable: false },
    tool_calls: { kind: 'json', max: 200_000, sortable: false, filterable: false },
    tool_call_id: { kind: 'text', max: 200 },
    prompt_tokens: { kind: 'integer', min: 0 },
    completion_tokens: { kind: 'integer', min: 0 },
    model: { kind: 'text', max: 200 },
    user_id: { kind: 'integer', min: 1, label: 'owner' },
  },
  readOnly: ['user_id'],
  search: ['content'],
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: true,
  restorable: true,
  ownerColumn: 'user_id',
  // The messages of a deleted conversation go with it (and come back when it is restored): the access policy's
  // parent rule (common/access-rules.ts PARENT_LINKS).
  ownRoutes: ['create', 'update'],
  hooks: {
    async beforeWrite(values, ctx) {
      if (ctx.action !== 'create') return values;
      const owner = ctx.user?.id;
      const thread = owner
        ? await ctx.trx
            .selectFrom('assistant_threads')
            .select('id')
            .where('id', '=', values.thread_id)
            .where('user_id', '=', owner)
            .where('deleted_at', 'is', null)
            .executeTakeFirst()
        : undefined;
      if (!thread) throw fieldError('thread_id', `No conversation has the id ${values.thread_id}.`);
      return { ...values, user_id: owner };
    },
    present(records) {
      for (const record of records) record.citations ??= [];
    },
  },
};
