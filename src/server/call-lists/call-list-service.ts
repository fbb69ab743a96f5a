import { sql } from 'kysely';
import type { CallList, CallListEntry } from '../../common/call-lists.js';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { logConversation } from '../conversations/log-conversation.js';
import { isPersonType, type PersonType, personField, personResource } from '../conversations/people.js';
import { type PeopleQuery, peopleOfList, peopleQueryError } from '../conversations/people-list.js';
import { fieldError, forbidden, notFound, ValidationError } from '../http/errors.js';
import type { WriteAnswer, WriteOptions } from '../records/record-service.js';

export type { CallList, CallListEntry };

/** The most people one call list holds: a phone bank works through hundreds, not a whole membership. */
export const MAX_CALL_LIST_PEOPLE = 5_000;
/** How long a caller holds the person they were given before another caller may be given them. */
export const CLAIM_MINUTES = 15;
/** Calls to one person before a list stops offering them when none reached them (no answer, left a message). */
export const MAX_ATTEMPTS = 3;

export interface CallListInput {
  name: string;
  person_type: PersonType;
  /** The people list's query that picks the people: `filter` (react-admin's filter values, `q` the search), `filters`. */
  query: PeopleQuery;
  script?: string | null;
}

/**
 * Call lists (docs/conversations.md "Call lists"): a list of people made from a people list's filters, worked one
 * person at a time. Who may make and work one: whoever may log conversations and read that kind of person; each
 * caller is only ever given people they may read. Two callers are never given the same person at once: the next
 * person is claimed with `FOR UPDATE SKIP LOCKED`, and a claim runs out after CLAIM_MINUTES.
 */
export class CallListService {
  constructor(private readonly ctx: AppContext) {}

  private personDef(type: PersonType) {
    return this.ctx.resources.get(personResource(type))!;
  }

  /** May log conversations: make, read and work call lists (of the kinds of people they may read). */
  private caller(user: AuthUser | null): asserts user is AuthUser {
    if (!user) throw forbidden();
    if (!can(user, 'conversation:create'))
      throw forbidden("You can't log conversations, so you can't work call lists. Ask an administrator.");
  }

  /** May log conversations with this kind of person: make, read and work call lists of them. */
  private authorize(user: AuthUser | null, type: PersonType): asserts user is AuthUser {
    this.caller(user);
    this.ctx.records.authorize(user, this.personDef(type), 'read');
  }

  async create(user: AuthUser | null, input: unknown): Promise<CallList> {
    this.caller(user);
    const values = parseInput(input);
    this.authorize(user, values.person_type);
    const { query, people } = await peopleOfList(
      this.ctx.records,
      user,
      this.personDef(values.person_type),
      values.query,
      MAX_CALL_LIST_PEOPLE,
    );
    const ids = people.map((person) => person.id);
    const id = await this.ctx.db.transaction().execute(async (trx) => {
      const list = await trx
        .insertInto('call_lists')
        .values({
          name: values.name,
          person_type: values.person_type,
          query: JSON.stringify(query),
          script: values.script ?? null,
          created_by: user.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let start = 0; start < ids.length; start += 1_000)
        await trx
          .insertInto('call_list_entries')
          .values(
            ids
              .slice(start, start + 1_000)
              .map((personId, index) => ({ call_list_id: list.id, position: start + index + 1, person_id: personId })),
          )
          .execute();
      return Number(list.id);
    });
    return this.show(user, id);
  }

  /** The call lists of the kinds of people this person may call, newest first. */
  async list(user: AuthUser | null): Promise<CallList[]> {
    this.caller(user);
    const types = ['contact', 'recruit', 'member'].filter((type) => can(user, `${type}:read`));
    if (!types.length) return [];
    const rows = await this.lists().where('l.person_type', 'in', types).orderBy('l.id', 'desc').limit(200).execute();
    return rows.map(toCallList);
  }

  async show(user: AuthUser | null, id: number): Promise<CallList> {
    this.caller(user);
    const row = await this.lists().where('l.id', '=', id).executeTakeFirst();
    if (!row || !isPersonType(row.person_type)) throw notFound(`No call list has the id ${id}.`);
    this.authorize(user, row.person_type);
    return toCallList(row);
  }

  /** Lists with who made them and their progress, as `l`. */
  private lists() {
    const entries = (outcome: string) =>
      sql<number>`(select count(*) from call_list_entries e where e.call_list_id = l.id and ${sql.raw(outcome)})`;
    return this.ctx.db
      .selectFrom('call_lists as l')
      .leftJoin('users as u', 'u.id', 'l.created_by')
      .select([
        'l.id',
        'l.name',
        'l.person_type',
        'l.query',
        'l.script',
        'l.created_by',
        'l.created_at',
        sql<string | null>`nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')`.as(
          'created_by_name',
        ),
        entries('true').as('total'),
        entries('e.done_at is not null').as('done'),
        entries('e.done_at is null and e.claimed_until > now()').as('calling'),
        sql<Record<string, number> | null>`(select jsonb_object_agg(o.outcome, o.n) from (
          select coalesce(e.outcome, 'none') as outcome, count(*)::int as n from call_list_entries e
          where e.call_list_id = l.id and e.done_at is not null group by 1) o)`.as('outcomes'),
      ])
      .where('l.archived_at', 'is', null);
  }

  /**
   * The person this caller works now: the one they already hold (a reload, a second tab), else the first on the
   * list nobody holds, is done with, or may not be read by them, claimed for CLAIM_MINUTES. Null when nobody is left.
   */
  async next(user: AuthUser | null, id: number): Promise<CallListEntry | null> {
    const list = await this.show(user, id);
    const caller = user as AuthUser;
    const readable = await this.ctx.records.visibleRows(this.ctx.db, this.personDef(list.person_type), caller);
    return this.ctx.db.transaction().execute(async (trx) => {
      const open = () =>
        trx
          .selectFrom('call_list_entries as e')
          .select('e.id')
          .where('e.call_list_id', '=', id)
          .where('e.done_at', 'is', null)
          .where('e.person_id', 'in', readable.select('t.id').$castTo<{ id: number }>())
          .orderBy('e.position')
          .limit(1);
      const held = await open()
        .where('e.claimed_by', '=', caller.id)
        .where('e.claimed_until', '>', sql<Date>`now()`)
        .executeTakeFirst();
      const free =
        held ??
        (await open()
          .where((eb) => eb.or([eb('e.claimed_until', 'is', null), eb('e.claimed_until', '<=', sql<Date>`now()`)]))
          .forUpdate()
          .skipLocked()
          .executeTakeFirst());
      if (!free) return null;
      const entry = await trx
        .updateTable('call_list_entries')
        .set({
          claimed_by: caller.id,
          claimed_until: sql`now() + make_interval(mins => ${CLAIM_MINUTES})`,
        })
        .where('id', '=', free.id)
        .returning(['id', 'call_list_id', 'position', 'person_id', 'claimed_until'])
        .executeTakeFirstOrThrow();
      return toEntry(entry, list.person_type);
    });
  }

  /** The entry this caller holds on this list (the one `next` gave them), or a 422 saying why it is not theirs. */
  private async held(user: AuthUser, listId: number, entryId: number) {
    const entry = await this.ctx.db
      .selectFrom('call_list_entries')
      .selectAll()
      .where('id', '=', entryId)
      .where('call_list_id', '=', listId)
      .executeTakeFirst();
    if (!entry) throw notFound(`No person on this call list has the entry id ${entryId}.`);
    if (entry.done_at) throw fieldError('entry', 'This person has already been called from this list.');
    if (entry.claimed_by !== user.id || !entry.claimed_until || !(new Date(entry.claimed_until) > new Date()))
      throw fieldError('entry', 'This person is no longer yours to call: take the next person on the list.');
    return entry;
  }

  /** Passes over the person this caller holds: back to the end of the list, for someone (or later) to call. */
  async skip(user: AuthUser | null, listId: number, entryId: number): Promise<void> {
    const list = await this.show(user, listId);
    await this.held(user as AuthUser, list.id, entryId);
    await this.ctx.db
      .updateTable('call_list_entries')
      .set({
        claimed_by: null,
        claimed_until: null,
        position: sql`(select coalesce(max(position), 0) + 1 from call_list_entries where call_list_id = ${listId})`,
      })
      .where('id', '=', entryId)
      .execute();
  }

  /**
   * The conversation had with the person this caller holds: logged as any conversation is (its next step, its
   * assessment), and the person done on the list with its outcome, in one transaction; an outcome that did not reach
   * them (no answer, left a message) puts them back at the end of the list, up to MAX_ATTEMPTS calls.
   */
  async logCall(
    user: AuthUser | null,
    listId: number,
    entryId: number,
    body: unknown,
    options: WriteOptions,
  ): Promise<WriteAnswer> {
    const list = await this.show(user, listId);
    const caller = user as AuthUser;
    const entry = await this.held(caller, list.id, entryId);
    const input = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const conversation = {
      channel: 'call',
      had_at: new Date().toISOString(),
      ...input,
      contact_id: null,
      recruit_id: null,
      member_id: null,
      [personField(list.person_type)]: entry.person_id,
    };
    return logConversation(this.ctx, caller, conversation, options, async (unit, written) => {
      const outcome = (written.record.outcome as string | null) ?? null;
      // An outcome that did not reach the person (the administrator's list says which) offers them again later.
      const reached = outcome
        ? await unit.trx
            .selectFrom('conversation_outcomes')
            .select('reached')
            .where('slug', '=', outcome)
            .executeTakeFirst()
        : undefined;
      const again = reached?.reached === false && entry.attempts + 1 < MAX_ATTEMPTS;
      const done = await unit.trx
        .updateTable('call_list_entries')
        .set({
          done_at: again ? null : sql`now()`,
          done_by: again ? null : caller.id,
          outcome,
          conversation_id: written.record.id as number,
          attempts: entry.attempts + 1,
          claimed_by: null,
          claimed_until: null,
          ...(again
            ? {
                position: sql`(select coalesce(max(position), 0) + 1 from call_list_entries where call_list_id = ${listId})`,
              }
            : {}),
        })
        .where('id', '=', entryId)
        .where('done_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw fieldError('entry', 'This person has already been called.');
    });
  }
}

function parseInput(input: unknown): CallListInput {
  const values = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const name = typeof values.name === 'string' ? values.name.trim() : '';
  if (!name) errors.name = ['Give the call list a name.'];
  else if (name.length > 200) errors.name = ['The name may not be longer than 200 characters.'];
  if (!isPersonType(values.person_type)) errors.person_type = ['Choose contacts, recruits or members.'];
  const query = values.query ?? {};
  const queryError = peopleQueryError(query);
  if (queryError) errors.query = [queryError];
  const script = typeof values.script === 'string' ? values.script.trim() : null;
  if (values.script !== undefined && values.script !== null && typeof values.script !== 'string')
    errors.script = ['The script must be text.'];
  else if (script && script.length > 20_000) errors.script = ['The script may not be longer than 20,000 characters.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    name,
    person_type: values.person_type as PersonType,
    query: query as CallListInput['query'],
    script: script || null,
  };
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

function toCallList(row: Record<string, unknown>): CallList {
  const total = Number(row.total);
  const done = Number(row.done);
  const calling = Number(row.calling);
  return {
    id: Number(row.id),
    name: String(row.name),
    person_type: row.person_type as PersonType,
    query: (typeof row.query === 'string' ? JSON.parse(row.query) : (row.query ?? {})) as Record<string, unknown>,
    script: (row.script as string | null) ?? null,
    created_by: (row.created_by as number | null) ?? null,
    created_by_name: (row.created_by_name as string | null) ?? null,
    created_at: iso(row.created_at),
    progress: {
      total,
      done,
      calling,
      left: total - done,
      outcomes: (row.outcomes as Record<string, number> | null) ?? {},
    },
  };
}

function toEntry(row: Record<string, unknown>, personType: PersonType): CallListEntry {
  return {
    id: Number(row.id),
    call_list_id: Number(row.call_list_id),
    position: Number(row.position),
    person_type: personType,
    person_id: Number(row.person_id),
    claimed_until: iso(row.claimed_until),
  };
}
