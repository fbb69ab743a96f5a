import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import {
  MAX_EMAIL_LENGTH,
  MAX_SMS_LENGTH,
  type Message,
  type MessageChannel,
  type MessageSend,
  type MessageStatus,
} from '../../common/messages.js';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fill, placeholdersOf } from '../automations/templates.js';
import type { Config } from '../config/config.js';
import { isPersonType, type PersonType, personResource } from '../conversations/people.js';
import { type PeopleQuery, peopleOfList, peopleQueryError } from '../conversations/people-list.js';
import { fieldError, forbidden, notFound, ValidationError } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { isTimeZone, nextAllowed } from './quiet-hours.js';
import { normaliseEmail, normalisePhone } from './sms-provider.js';

export type { Message, MessageSend };

/** Whether copies on `channel` can leave now: a provider is configured. */
export const hasProvider = (config: Config, channel: MessageChannel) =>
  channel === 'sms' ? config.messages.sms !== null : Boolean(config.mail.smtpUrl);

/** Why a copy is kept as not sent. */
export const noProviderDetail = (channel: MessageChannel) =>
  `Not sent: no ${channel === 'sms' ? 'SMS provider (SMS_API_URL)' : 'mail server (SMTP_URL)'} is configured.`;

export const MESSAGES_JOB = 'messages-send';
/** The most people one message goes to at once (a list of a campaign's people, not a whole membership at a time). */
export const MAX_RECIPIENTS = 5_000;
const INSERT_CHUNK = 500;
/** The line every text ends with, so a person always knows how to stop them. */
export const SMS_STOP_LINE = 'Reply STOP to opt out.';

interface SendInput {
  channel: MessageChannel;
  person_type: PersonType;
  query: PeopleQuery;
  subject: string | null;
  body: string;
}

/**
 * Texts and emails to the people of a list (docs/messages.md): one message, written with merge fields, copied for each
 * person the sender may read, each copy queued to go within the per-minute rate and outside the person's quiet hours,
 * never to an address that opted out. Without a provider a copy is kept as not sent, never dropped.
 */
export class MessageService {
  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {}

  private sender(user: AuthUser | null): asserts user is AuthUser {
    if (!user) throw forbidden();
    if (!can(user, 'message:send'))
      throw forbidden("You can't text or email people from a list. Ask an administrator.");
  }

  async create(user: AuthUser | null, input: unknown): Promise<MessageSend> {
    this.sender(user);
    const values = parseInput(input);
    const def = this.ctx.resources.get(personResource(values.person_type))!;
    this.ctx.records.authorize(user, def, 'read');
    // Merge fields are those the sender's role shows them.
    const fields = await this.ctx.records.visibleFields(user, def);
    const merged = placeholdersOf(`${values.subject ?? ''} ${values.body}`);
    const unknown = merged.filter((name) => !(name in fields));
    if (unknown.length)
      throw fieldError(
        'body',
        `Unknown merge field ${unknown.map((name) => `{{${name}}}`).join(', ')}. Use one of: ${Object.keys(fields)
          .filter((name) => ['text', 'email', 'phone', 'number', 'date'].includes(String(fields[name]?.type)))
          .map((name) => `{{${name}}}`)
          .join(', ')}.`,
      );
    const several = merged.filter((name) => typeof fields[name]?.storage === 'object');
    if (several.length)
      throw fieldError('body', `{{${several[0]}}} links several records: it has no one value to put in a message.`);
    const addressField = values.channel === 'sms' ? 'phone' : 'email';
    // Read as the sender reads them, with only what the message needs: a phone or email their field rules hide is
    // no address to them.
    const { query, people } = await peopleOfList(this.ctx.records, user, def, values.query, MAX_RECIPIENTS, [
      addressField,
      'time_zone',
      ...merged,
    ]);
    const addressOf = (person: Record<string, unknown>) => {
      const raw = person[addressField];
      if (typeof raw !== 'string' || !raw.trim()) return '';
      return values.channel === 'sms' ? normalisePhone(raw) : normaliseEmail(raw);
    };
    const addresses = [...new Set(people.map(addressOf).filter(Boolean))];
    const optedOut = new Set<string>();
    for (let start = 0; start < addresses.length; start += INSERT_CHUNK) {
      const rows = await this.ctx.db
        .selectFrom('message_opt_outs')
        .select('address')
        .where('channel', '=', values.channel)
        .where('address', 'in', addresses.slice(start, start + INSERT_CHUNK))
        .execute();
      for (const row of rows) optedOut.add(row.address);
    }
    const now = new Date();
    const provider = hasProvider(this.ctx.config, values.channel);
    const { quietHours } = this.ctx.config.messages;
    // Everyone in one time zone may be written to from the same moment: worked out once a zone.
    const allowedFrom = new Map<string, Date>();
    const sendAfter = (zone: string) => {
      let at = allowedFrom.get(zone);
      if (!at) {
        at = nextAllowed(now, zone, quietHours);
        allowedFrom.set(zone, at);
      }
      return at;
    };
    const copies = people.map((person) => {
      const address = addressOf(person);
      const context = { ...person };
      const text = String(fill(values.body, context) ?? '');
      const body =
        values.channel === 'sms'
          ? `${text}\n${SMS_STOP_LINE}`
          : address
            ? `${text}\n\n--\nTo get no more emails from us, open ${this.unsubscribeUrl(address)}`
            : text;
      const zone = isTimeZone(person.time_zone) ? person.time_zone : this.ctx.config.timeZone;
      const status: MessageStatus = !address
        ? 'no_address'
        : optedOut.has(address)
          ? 'opted_out'
          : provider
            ? 'queued'
            : 'not_sent';
      return {
        channel: values.channel,
        direction: 'out',
        person_type: values.person_type,
        person_id: Number(person.id),
        address,
        subject: values.subject === null ? null : String(fill(values.subject, context) ?? ''),
        body,
        status,
        detail: status === 'not_sent' ? noProviderDetail(values.channel) : null,
        send_after: status === 'queued' ? sendAfter(zone) : now,
      };
    });
    const id = await this.ctx.db.transaction().execute(async (trx) => {
      const send = await trx
        .insertInto('message_sends')
        .values({
          channel: values.channel,
          person_type: values.person_type,
          query: JSON.stringify(query),
          subject: values.subject,
          body: values.body,
          created_by: user.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The copies as one JSON parameter, not 14 parameters a row: thousands of rows bind in one go.
      await sql`insert into messages (send_id, channel, direction, person_type, person_id, address, subject, body,
          status, detail, send_after)
        select ${send.id}, c.channel, c.direction, c.person_type, c.person_id, c.address, c.subject, c.body, c.status,
          c.detail, c.send_after
        from jsonb_to_recordset(${JSON.stringify(copies)}::jsonb) as c(channel text, direction text, person_type text,
          person_id integer, address text, subject text, body text, status text, detail text, send_after timestamptz)`.execute(
        trx,
      );
      if (copies.some((copy) => copy.status === 'queued')) await enqueueJob(trx, MESSAGES_JOB, {});
      return send.id;
    });
    setImmediate(this.wake);
    return this.show(user, id);
  }

  async list(user: AuthUser | null): Promise<MessageSend[]> {
    this.sender(user);
    const rows = await this.sends().orderBy('s.id', 'desc').limit(200).execute();
    return this.withCounts(rows);
  }

  async show(user: AuthUser | null, id: number): Promise<MessageSend> {
    this.sender(user);
    const row = await this.sends().where('s.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`No message has the id ${id}.`);
    return (await this.withCounts([row]))[0]!;
  }

  /** The copies of a message, with `status` only those; at most 500, people the reader may read named by the client. */
  async copies(user: AuthUser | null, id: number, status: MessageStatus | undefined): Promise<Message[]> {
    await this.show(user, id);
    let query = this.ctx.db.selectFrom('messages').selectAll().where('send_id', '=', id);
    if (status) query = query.where('status', '=', status);
    return (await query.orderBy('id').limit(500).execute()).map(toMessage);
  }

  /** Copies kept as not sent (no provider then) queued again, now that one is configured. */
  async sendUnsent(user: AuthUser | null, id: number): Promise<number> {
    const send = await this.show(user, id);
    if (!hasProvider(this.ctx.config, send.channel))
      throw fieldError(
        'channel',
        send.channel === 'sms'
          ? 'No SMS provider is configured yet (SMS_API_URL): the messages stay kept as not sent.'
          : 'No mail server is configured yet (SMTP_URL): the messages stay kept as not sent.',
      );
    const requeued = await this.ctx.db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable('messages')
        .set({ status: 'queued', detail: null, send_after: new Date() })
        .where('send_id', '=', id)
        .where('status', '=', 'not_sent')
        .returning('id')
        .execute();
      if (rows.length) await enqueueJob(trx, MESSAGES_JOB, {});
      return rows.length;
    });
    setImmediate(this.wake);
    return requeued;
  }

  // Unsubscribe links: the address, signed with the app key, so no one can opt out someone else's address.
  private unsubscribeKey() {
    return this.ctx.config.appKey ?? '';
  }

  unsubscribeToken(email: string): string {
    const address = Buffer.from(normaliseEmail(email)).toString('base64url');
    const signature = createHmac('sha256', this.unsubscribeKey()).update(`unsubscribe:${address}`).digest('base64url');
    return `${address}.${signature}`;
  }

  unsubscribeUrl(email: string): string {
    return `${this.ctx.config.appUrl}/api/messages/unsubscribe?token=${this.unsubscribeToken(email)}`;
  }

  /** The address a token names, if the token is ours. */
  addressOfToken(token: string): string | null {
    const [address, signature] = token.split('.');
    if (!address || !signature || !/^[\w-]+$/.test(address) || !/^[\w-]+$/.test(signature)) return null;
    const expected = Buffer.from(
      createHmac('sha256', this.unsubscribeKey()).update(`unsubscribe:${address}`).digest('base64url'),
    );
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return Buffer.from(address, 'base64url').toString('utf8');
  }

  /** Nobody may message this address on this channel again; copies still waiting for it are stopped. */
  async optOut(channel: MessageChannel, address: string, reason: string): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('message_opt_outs')
        .values({ channel, address, reason })
        .onConflict((conflict) => conflict.columns(['channel', 'address']).doNothing())
        .execute();
      await trx
        .updateTable('messages')
        .set({ status: 'opted_out', detail: reason })
        .where('channel', '=', channel)
        .where('address', '=', address)
        .where('status', 'in', ['queued', 'not_sent'])
        .execute();
    });
  }

  /** A text received at the provider's webhook: kept on the person's timeline; STOP opts the number out. */
  async receiveSms(from: string, body: string, providerId: string | null, stop: boolean): Promise<void> {
    const address = normalisePhone(from);
    if (!address) return;
    const person = await this.personByPhone(address);
    await this.ctx.db
      .insertInto('messages')
      .values({
        channel: 'sms',
        direction: 'in',
        person_type: person?.type ?? null,
        person_id: person?.id ?? null,
        address,
        body: body.slice(0, MAX_SMS_LENGTH),
        status: 'received',
        provider_id: providerId,
        detail: stop ? 'They asked for no more texts.' : null,
      })
      .execute();
    if (stop) await this.optOut('sms', address, 'Replied STOP.');
  }

  /** The person a number belongs to: the last one texted from it, else a contact, recruit or member with that phone. */
  private async personByPhone(address: string): Promise<{ type: PersonType; id: number } | null> {
    const sent = await this.ctx.db
      .selectFrom('messages')
      .select(['person_type', 'person_id'])
      .where('channel', '=', 'sms')
      .where('direction', '=', 'out')
      .where('address', '=', address)
      .where('person_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (sent?.person_type && sent.person_id && isPersonType(sent.person_type))
      return { type: sent.person_type, id: sent.person_id };
    const digits = address.replace(/^\+1(?=\d{10}$)/, '').replace(/\D/g, '');
    for (const type of ['contact', 'recruit', 'member'] as const) {
      const table = this.ctx.resources.get(personResource(type))!.table;
      const row = await sql<{ id: number }>`select id from ${sql.table(table)}
        where deleted_at is null and phone is not null
          and right(regexp_replace(phone, '[^0-9]', '', 'g'), ${digits.length}) = ${digits}
        order by id limit 1`.execute(this.ctx.db);
      if (row.rows[0]) return { type, id: Number(row.rows[0].id) };
    }
    return null;
  }

  private sends() {
    return this.ctx.db
      .selectFrom('message_sends as s')
      .leftJoin('users as u', 'u.id', 's.created_by')
      .select([
        's.id',
        's.channel',
        's.person_type',
        's.query',
        's.subject',
        's.body',
        's.created_by',
        's.created_at',
        sql<string | null>`nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')`.as(
          'created_by_name',
        ),
      ]);
  }

  private async withCounts(rows: Array<Record<string, unknown>>): Promise<MessageSend[]> {
    if (!rows.length) return [];
    const counts = await this.ctx.db
      .selectFrom('messages')
      .select(['send_id', 'status', sql<number>`count(*)::int`.as('count')])
      .where(
        'send_id',
        'in',
        rows.map((row) => Number(row.id)),
      )
      .groupBy(['send_id', 'status'])
      .execute();
    return rows.map((row) => {
      const mine = counts.filter((count) => count.send_id === Number(row.id));
      return {
        id: Number(row.id),
        channel: row.channel as MessageChannel,
        person_type: row.person_type as PersonType,
        query: (typeof row.query === 'string' ? JSON.parse(row.query) : (row.query ?? {})) as Record<string, unknown>,
        subject: (row.subject as string | null) ?? null,
        body: String(row.body),
        created_by: (row.created_by as number | null) ?? null,
        created_by_name: (row.created_by_name as string | null) ?? null,
        created_at: iso(row.created_at),
        counts: Object.fromEntries(mine.map((count) => [count.status, Number(count.count)])),
        total: mine.reduce((sum, count) => sum + Number(count.count), 0),
      };
    });
  }
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

export function toMessage(row: Record<string, unknown>): Message {
  return {
    id: Number(row.id),
    send_id: row.send_id === null ? null : Number(row.send_id),
    channel: row.channel as MessageChannel,
    direction: row.direction as 'out' | 'in',
    person_type: (row.person_type as PersonType | null) ?? null,
    person_id: row.person_id === null ? null : Number(row.person_id),
    address: String(row.address),
    subject: (row.subject as string | null) ?? null,
    body: String(row.body),
    status: row.status as MessageStatus,
    detail: (row.detail as string | null) ?? null,
    created_at: iso(row.created_at),
    sent_at: row.attempted_at && row.status === 'sent' ? iso(row.attempted_at) : null,
  };
}

function parseInput(input: unknown): SendInput {
  const values = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const channel = values.channel;
  if (channel !== 'sms' && channel !== 'email') errors.channel = ['Choose a text or an email.'];
  if (!isPersonType(values.person_type)) errors.person_type = ['Choose contacts, recruits or members.'];
  const query = values.query ?? {};
  const queryError = peopleQueryError(query);
  if (queryError) errors.query = [queryError];
  const body = typeof values.body === 'string' ? values.body.trim() : '';
  const max = channel === 'sms' ? MAX_SMS_LENGTH - SMS_STOP_LINE.length - 1 : MAX_EMAIL_LENGTH;
  if (!body) errors.body = ['Write the message.'];
  else if (body.length > max)
    errors.body = [`The message may not be longer than ${max.toLocaleString('en-US')} characters.`];
  const subject = typeof values.subject === 'string' ? values.subject.trim() : '';
  if (channel === 'email' && !subject) errors.subject = ['Give the email a subject.'];
  else if (subject.length > 200) errors.subject = ['The subject may not be longer than 200 characters.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    channel: channel as MessageChannel,
    person_type: values.person_type as PersonType,
    query: query as SendInput['query'],
    subject: channel === 'email' ? subject : null,
    body,
  };
}
