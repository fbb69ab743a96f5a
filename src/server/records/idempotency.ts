/**
 * Writes sent with an `Idempotency-Key` header happen once (docs/offline.md). The browser's outbox sends each record
 * captured offline with a key of its own and sends it again whenever it cannot know whether an attempt arrived (the
 * connection dropped before the answer, the page was closed); a second attempt with the key gets the first answer and
 * writes nothing. The key is claimed in the write's own transaction, so a write that fails leaves no key behind, and
 * two attempts at once wait for each other (PostgreSQL holds the second insert until the first commits).
 *
 * Keys belong to the person who sent them: another person's request with the same key is a request of its own and
 * never sees the first answer. A key reused for another kind of write (another resource or record) is refused.
 */

import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { fieldError } from '../http/errors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept: longer than any phone stays offline with something to send. */
const KEEP_DAYS = 30;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;

export interface StoredAnswer {
  record: Record<string, any>;
  message: string;
}

/** The request's key, checked (422 when it is malformed), or undefined when it sent none. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw))
    throw fieldError(
      'idempotency_key',
      'The Idempotency-Key header must be 8 to 200 letters, digits or - _ . : characters.',
    );
  return raw;
}

/**
 * Claims `key` for `userId` in the write's transaction. Returns the first answer when the key was already used for
 * this write (nothing is to be written), or null when this attempt is the first (the caller writes, then `keep`s).
 */
export async function claim(
  trx: Kysely<any>,
  userId: number,
  key: string,
  scope: string,
): Promise<StoredAnswer | null> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, scope })
    .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return null;
  return (await firstAnswer(trx, userId, key, scope))!;
}

/**
 * The answer kept for `key`, read before the write's checks so a repeated attempt is answered as the first was even
 * when the record type or the data changed since; null when the key is new.
 */
export async function firstAnswer(
  db: Kysely<any>,
  userId: number,
  key: string,
  scope: string,
): Promise<StoredAnswer | null> {
  const first = await db
    .selectFrom('idempotency_keys')
    .select(['scope', 'answer'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!first) return null;
  if (first.scope !== scope)
    throw fieldError(
      'idempotency_key',
      'This Idempotency-Key was already used for another change. Send each change with a key of its own.',
    );
  return (typeof first.answer === 'string' ? JSON.parse(first.answer) : first.answer) as StoredAnswer;
}

/** Keeps the answer of the first attempt beside its key (same transaction as the write), and forgets old keys. */
export async function keep(trx: Kysely<any>, userId: number, key: string, answer: StoredAnswer): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(answer) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
  await trx
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', userId)
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${KEEP_DAYS})`)
    .execute();
}
