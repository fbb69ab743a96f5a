import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { assessFromConversation } from '../assessments/apply.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { WriteAnswer, WriteOptions, WriteUnit } from '../records/record-service.js';
import { conversationsResource } from './conversations-resource.js';
import { personOf } from './people.js';

/** The kind of task a next step becomes, by how the conversation was had. */
const TASK_TYPES: Record<string, 'call' | 'meeting' | 'visit'> = {
  call: 'call',
  text: 'call',
  email: 'call',
  meeting: 'meeting',
  visit: 'visit',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `POST /api/conversations`: a conversation and what it sets going, written together in one transaction through the
 * data service (each with its validation, hooks and revision; every event after commit): the conversation; the task
 * its next step becomes, on the person, for whoever is named (the person logging it when no one is); the task it
 * was logged from, completed; the person's assessment, when it found one. A refusal of any part (no permission to add tasks, a bad due date) refuses all.
 */
export async function logConversation(
  ctx: AppContext,
  user: AuthUser | null,
  body: unknown,
  options: WriteOptions,
  /** More of the same transaction, once the conversation and what it set going are written (a call list's entry done). */
  alsoWrite?: (unit: WriteUnit, written: WriteAnswer) => Promise<void>,
): Promise<WriteAnswer> {
  const def = conversationsResource;
  ctx.records.authorize(user, def, 'create');
  const input = isObject(body) ? body : {};
  const nextStep = typeof input.next_step === 'string' ? input.next_step.trim() : '';
  if (nextStep && !can(user, 'task:create'))
    throw fieldError('next_step', "You can't add tasks, so a next step can't become one. Ask an administrator.");
  const fromTask = typeof input.task_id === 'number' ? input.task_id : null;
  if (fromTask && !can(user, 'task:update'))
    throw fieldError('task_id', "You can't complete tasks, so a conversation can't be logged from one.");
  const tasks = ctx.resources.byType('task')!;
  return ctx.records.inOneTransaction(async (unit) => {
    const written = await ctx.records.create(user, def, body, { ...options, unit });
    if (written.replayed) return written;
    const conversation = written.record;
    const [person] = personOf(conversation);
    if (nextStep && person) {
      const task = await ctx.records.create(
        user,
        tasks,
        {
          title: nextStep,
          type: TASK_TYPES[conversation.channel] ?? 'call',
          due_at: conversation.next_step_due ? new Date(conversation.next_step_due).toISOString() : null,
          assignee_id: conversation.next_step_user_id ?? user.id,
          taskable_type: person.type,
          taskable_id: person.id,
          notes: `The next step of a conversation (${conversation.title}).`,
        },
        { unit },
      );
      // The link from the conversation to the task it asked for: a column of the conversation no one sends.
      await unit.trx
        .updateTable('conversations')
        .set({ next_task_id: task.record.id })
        .where('id', '=', conversation.id)
        .execute();
      conversation.next_task_id = task.record.id;
    }
    if (person && conversation.assessment)
      await assessFromConversation(ctx, user, unit, person, conversation.assessment, conversation.id);
    if (fromTask) {
      const task = await (await ctx.records.visibleRows(unit.trx, tasks, user))
        .select(['t.id', 't.completed_at'])
        .where('t.id', '=', fromTask)
        .executeTakeFirst();
      if (!task) throw fieldError('task_id', `No task has the id ${fromTask}, or you may not read it.`);
      if (!task.completed_at) await ctx.records.update(user, tasks, fromTask, { completed: true }, { unit });
    }
    if (alsoWrite) await alsoWrite(unit, written);
    return written;
  });
}
