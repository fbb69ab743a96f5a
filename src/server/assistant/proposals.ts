import { can } from '../../common/permissions.js';
import { taskTypeLabel } from '../../common/task-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { HttpError } from '../http/errors.js';
import { validateInput } from '../records/validate.js';
import { recordLabel, type TypeInfo } from './catalogue.js';
import { whenIn } from './dates.js';
import type { Proposal, ProposalKind } from './resources.js';
import { describeRows, findByName, resolveFilters } from './tools/records.js';
import type { RecordRef, ToolScope } from './tools/scope.js';

/**
 * Changes the assistant may propose: create a task, log a note, change a field, assign a record. A proposal is only
 * data on the answer: `write` is what approving will send through the record service, as the person, and the card
 * shows `lines`. Building one checks what approving will check (permission, the record being readable, the values
 * being valid) so that the person is not offered a change that cannot be made.
 */
export interface ProposalInput {
  kind: ProposalKind;
  record?: RecordRef | null;
  title?: string;
  task_type?: 'call' | 'meeting' | 'visit';
  due?: string;
  body?: string;
  field?: string;
  value?: unknown;
  assignee?: string | number;
}

const refuse = (message: string): never => {
  throw new HttpError(422, message);
};

const dayText = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

async function target(
  scope: ToolScope,
  ref: RecordRef | null | undefined,
): Promise<{ info: TypeInfo; row: Record<string, any>; ref: RecordRef } | null> {
  if (!ref) return null;
  const info = scope.typeOf(ref.type);
  if (!info) return refuse(`There is no record type "${ref.type}" that you may read.`);
  const row = await scope.app.records.show(scope.user, info.def, Number(ref.id));
  const cited = scope.cite(info, row);
  return { info, row, ref: { type: info.type, id: row.id, label: cited.label, url: cited.url } };
}

/** The values checked as the record service will check them when the person approves (422 with the reason). */
async function checked(scope: ToolScope, info: TypeInfo, values: Record<string, unknown>, mode: 'create' | 'update') {
  validateInput(values, await scope.app.records.fields(info.def), { mode, readOnly: info.def.readOnly });
}

async function person(scope: ToolScope, who: string | number | undefined): Promise<{ id: number; name: string }> {
  if (
    who === undefined ||
    who === null ||
    who === '' ||
    (typeof who === 'string' && /^(me|myself|i)$/i.test(who.trim())) ||
    who === scope.user.id
  ) {
    return { id: scope.user.id, name: `${scope.user.first_name} ${scope.user.last_name}`.trim() || 'you' };
  }
  const users = scope.app.resources.get('users');
  if (!users || !can(scope.user, 'user:read'))
    return refuse('You may only assign to yourself: you may not look up other people.');
  const found =
    typeof who === 'number' || /^\d+$/.test(String(who))
      ? [await scope.app.records.show(scope.user, users, Number(who))]
      : await findByName(scope, users, String(who), 2);
  if (found.length !== 1)
    return refuse(found.length ? `More than one person is called "${who}".` : `Nobody called "${who}" was found.`);
  return { id: found[0].id, name: recordLabel(found[0]) };
}

export async function buildProposal(scope: ToolScope, input: ProposalInput): Promise<Proposal> {
  const on = await target(scope, input.record ?? null);
  const base = { kind: input.kind, status: 'pending' as const, record: on?.ref ?? null };
  switch (input.kind) {
    case 'create_task': {
      const tasks = scope.typeOf('task');
      if (!tasks || !can(scope.user, 'task:create')) return refuse('You may not create tasks.');
      const title = input.title?.trim() || refuse('A task needs a title.');
      const type = input.task_type ?? 'call';
      const due = input.due
        ? Number.isNaN(Date.parse(input.due))
          ? whenIn(input.due.toLowerCase(), scope.now)?.at
          : new Date(input.due).toISOString()
        : undefined;
      if (input.due && !due) refuse(`"${input.due}" is not a day I understand.`);
      const values: Record<string, unknown> = {
        title: title.slice(0, 200),
        type,
        ...(due ? { due_at: due } : {}),
        ...(on ? { taskable_type: on.info.type, taskable_id: on.row.id } : {}),
      };
      if (input.body) values.notes = input.body;
      await checked(scope, tasks, values, 'create');
      return {
        ...base,
        summary: `Create a task: ${title}${due ? `, due ${dayText(due)}` : ''}${on ? `, on ${on.ref.label}` : ''}.`,
        write: { action: 'create', type: 'task', values },
        lines: [
          ['Task', null, title],
          ['Type', null, taskTypeLabel(type)],
          ...(due ? [['Due', null, dayText(due)] as [string, null, string]] : []),
          ...(on ? [['On', null, on.ref.label!] as [string, null, string]] : []),
          ['Assigned to', null, 'you'],
        ],
      };
    }
    case 'log_note': {
      const notes = scope.typeOf('note');
      if (!notes || !can(scope.user, 'note:create')) return refuse('You may not write notes.');
      if (!on) return refuse('Say which record the note is on.');
      const body = input.body?.trim() || refuse('A note needs its text.');
      const values = { body, notable_type: on.info.type, notable_id: on.row.id };
      await checked(scope, notes, values, 'create');
      return {
        ...base,
        summary: `Log a note on ${on.ref.label}: ${body}`,
        write: { action: 'create', type: 'note', values },
        lines: [
          ['Note', null, body],
          ['On', null, on.ref.label!],
        ],
      };
    }
    case 'update_field':
    case 'assign': {
      if (!on) return refuse('Say which record to change.');
      const { info, row } = on;
      const access = scope.app.records.access;
      const category = info.def.categoryColumn ? row[info.def.categoryColumn] : null;
      if (!access.may(scope.user, info.def, 'update', category))
        return refuse(`You may not change ${info.plural}${category ? ` of type ${category}` : ''}.`);
      if (!(await access.admits(scope.app.db, info.def, scope.user, row.id, 'update')))
        return refuse(await access.refusal(scope.user, info.def, 'update'));
      let slug: string;
      let value: unknown;
      let assignee: { id: number; name: string } | null = null;
      if (input.kind === 'assign') {
        slug = info.type === 'task' ? 'assignee_id' : 'user_id';
        if (!info.fields.has(slug)) return refuse(`${info.plural} are not assigned to anyone.`);
        assignee = await person(scope, input.assignee);
        value = assignee.id;
      } else {
        const wanted = (input.field ?? '').trim().toLowerCase();
        const field = info.fields.get(wanted) ?? [...info.fields.values()].find((f) => f.name === wanted);
        if (
          !field ||
          info.def.readOnly?.includes(field.slug) ||
          ['id', 'created_at', 'updated_at'].includes(field.slug)
        )
          return refuse(`${info.plural} have no field "${input.field}" that can be changed.`);
        slug = field.slug;
        value = (await resolveFilters(scope, info, { [slug]: input.value as any }))[slug];
      }
      if (info.def.categoryColumn === slug && !access.may(scope.user, info.def, 'update', String(value)))
        return refuse(`You may not make ${info.plural} of type ${String(value)}.`);
      const values = { [slug]: value };
      await checked(scope, info, values, 'update');
      const field = info.fields.get(slug)!;
      const [before] = await describeRows(scope, info, [row], [slug]);
      const [after] = await describeRows(scope, info, [{ ...row, [slug]: value }], [slug]);
      const show = (v: unknown) => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(', ') : String(v));
      const afterText = assignee?.name ?? show(after[slug]) ?? String(value);
      return {
        ...base,
        summary:
          input.kind === 'assign'
            ? `Assign ${on.ref.label} to ${afterText}.`
            : `Change the ${field.name} of ${on.ref.label} to ${afterText}.`,
        write: {
          action: 'update',
          type: info.type,
          id: row.id,
          values: {
            ...values,
            updated_at: row.updated_at instanceof Date ? row.updated_at.toISOString() : row.updated_at,
          },
        },
        lines: [[field.name.charAt(0).toUpperCase() + field.name.slice(1), show(before[slug]), afterText]],
      };
    }
  }
}

/** Approving: the proposal's write, through the record service as the person, its revision marked as proposed by the assistant. */
export async function applyProposal(app: AppContext, user: AuthUser, proposal: Proposal): Promise<RecordRef> {
  const def = app.resources.byType(proposal.write.type);
  if (!def) throw new HttpError(422, `There is no record type "${proposal.write.type}".`);
  const { record } =
    proposal.write.action === 'create'
      ? await app.records.create(user, def, proposal.write.values, { via: 'assistant' })
      : await app.records.update(user, def, proposal.write.id!, proposal.write.values, { via: 'assistant' });
  return { type: def.type, id: record.id, label: recordLabel(record) };
}
