import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked } from '../schemas/schema-backed.js';
import { assertOwnerReadable } from '../work/owners.js';
import { PERSON_TYPES, personField, personOf } from './people.js';

const CHANNEL_NAMES: Record<string, string> = {
  call: 'Call',
  text: 'Text',
  email: 'Email',
  visit: 'Visit',
  meeting: 'Meeting',
};

/** "Nov 20, 2026": made once, as each `toLocaleDateString` with options builds a formatter of its own. */
const DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });

/** A conversation's name where records are named (pickers, history, the feed): "Call on Nov 20, 2026". */
const LABEL = `initcap(channel) || ' on ' || to_char(had_at at time zone 'UTC', 'Mon FMDD, YYYY')`;

/**
 * Conversations (fields: schemas/conversation.json; docs/conversations.md): a call, text, email, visit or meeting with
 * one contact, recruit or member, who had it (`user_id`: the person logging it unless they may log for others), when,
 * the outcome, notes, the assessment found and a next step. `person_type` and `person_id` (generated columns) say
 * whom it was with; a person reads the conversations of the people they may read. Logging one with its next step and
 * assessment is `POST /api/conversations` (log-conversation.ts), which writes them together.
 */
export const conversationsResource: ResourceDefinition = schemaBacked(
  builtinType('conversation', {
    table: 'conversations',
    fields: {
      // The task it was logged from (completed by it) and the task its next step became.
      task_id: { kind: 'integer', min: 1, label: 'task', references: { table: 'tasks', softDelete: true } },
      next_task_id: { kind: 'integer', min: 1, label: 'next task', references: { table: 'tasks', softDelete: true } },
    },
    readOnly: ['title', 'person_type', 'person_id', 'next_task_id', 'user_name', 'next_step_user_name'],
    search: ['notes', 'next_step'],
    defaultSort: { field: 'had_at', order: 'desc' },
    softDelete: true,
    optionLabel: LABEL,
    ownRoutes: ['create'],
    hooks: {
      async beforeWrite(values, { trx, user, existing, records }) {
        const people = personOf({ ...existing, ...values });
        if (people.length !== 1)
          throw fieldError(
            'contact_id',
            'A conversation is with one person: name one contact, one recruit or one member.',
          );
        for (const type of PERSON_TYPES) {
          const field = personField(type);
          if (values[field] !== undefined && values[field] !== null)
            await assertOwnerReadable(records, trx, user, type, values[field], field, field);
        }
        if (values.site_id !== undefined && values.site_id !== null)
          await assertOwnerReadable(records, trx, user, 'site', values.site_id, 'site_id', 'site_id');
        return values;
      },
      // Who had it and whom the next step is for, by name: as a note names its writer, for readers without user:read.
      async present(records, db) {
        const people = [...new Set(records.flatMap((r) => [r.user_id, r.next_step_user_id]).filter(Boolean))];
        const users = people.length
          ? await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', people).execute()
          : [];
        const names = new Map(users.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim()]));
        for (const record of records) {
          record.user_name = names.get(record.user_id) ?? null;
          record.next_step_user_name = names.get(record.next_step_user_id) ?? null;
          const at = record.had_at instanceof Date ? record.had_at : new Date(String(record.had_at ?? ''));
          const day = Number.isNaN(at.getTime()) ? '' : DAY.format(at);
          record.title = `${CHANNEL_NAMES[record.channel] ?? 'Conversation'} on ${day}`;
        }
      },
    },
  }),
  { loggedBy: 'user_id' },
);
