/**
 * Writes sent with an `Idempotency-Key` header happen once (docs/offline.md), after the IETF draft "The
 * Idempotency-Key HTTP Header Field" (draft-ietf-httpapi-idempotency-key-header). The browser's outbox sends each
 * record captured offline with a key of its own and sends it again whenever it cannot know whether an attempt arrived
 * (the connection dropped before the answer, the page was closed); a second attempt with the key gets the first
 * answer, status and body as they were sent, and writes nothing.
 *
 * - The key is claimed in the write's own transaction, so a write that fails leaves no key behind, and two attempts
 *   at once wait for each other (PostgreSQL holds the second insert until the first commits): the second gets the
 *   first's answer rather than the draft's 409, which the outbox would read as an edit conflict.
 * - Beside the key is the request's fingerprint: SHA-256 of its method, path and body (keys sorted). The same key with
 *   another method, path or body is a 422: the draft's "key reused with a different payload".
 * - Keys belong to the person who sent them: another person's request with the same key is a request of its own and
 *   never sees the first answer.
 * - A key is kept IDEMPOTENCY_KEY_DAYS; after that it is a new key, and a job removes it.
 */

import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import stringify from 'safe-stable-stringify';
import type { Feature } from '../app-context.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError } from '../http/errors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key and its answer are kept: longer than any phone stays offline with something to send. */
export const IDEMPOTENCY_KEY_DAYS = 30;
/** The job that removes expired keys, and how often it runs. */
export const IDEMPOTENCY_PURGE_JOB = 'idempotency-keys-purge';
const PURGE_EVERY_MS = 6 * 3_600_000;
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;

/** A request's key and the fingerprint of what it asks (method, path, body). */
export interface RequestKey {
  key: string;
  fingerprint: string;
}

/** A claimed key: whose it is, and the kind of write (`create visits`, `update sites 5`). */
export interface Claim extends RequestKey {
  userId: number;
  scope: string;
}

/** What a write answers, kept beside its key until the answer as sent replaces it. */
export interface StoredAnswer {
  record: Record<string, any>;
  message: string;
}

/** A first attempt's answer: the record and message, and once it was sent, the status and body as sent. */
export interface FirstAnswer extends StoredAnswer {
  sent?: { status: number; body: string };
}

/**
 * The request's key, checked (422 when it is malformed), with its fingerprint; undefined when it sent none. The
 * draft's form is a quoted string (`"8e03978e-..."`); the bare token is taken too.
 */
export function idempotencyOf(request: FastifyRequest): RequestKey | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const key = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : '';
  if (!KEY_PATTERN.test(key))
    throw fieldError(
      'idempotency_key',
      'The Idempotency-Key header must be 8 to 200 letters, digits or - _ . : characters.',
    );
  return { key, fingerprint: fingerprintOf(request.method, request.url, request.body) };
}

/** SHA-256 of the method, the path (without the query) and the body with its keys sorted. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  const path = url.split('?')[0];
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${stringify(body) ?? ''}`)
    .digest('hex');
}

/** Keys made before this are expired. */
const expiry = () => sql<Date>`now() - make_interval(days => ${IDEMPOTENCY_KEY_DAYS})`;

/**
 * Claims the key in the write's transaction. Returns the first answer when the key was already used for this request
 * (nothing is to be written), or null when this attempt is the first (the caller writes, then `keep`s). An expired
 * key is claimed afresh.
 */
export async function claim(trx: Kysely<DB>, once: Claim): Promise<FirstAnswer | null> {
  const fresh = { scope: once.scope, fingerprint: once.fingerprint };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ user_id: once.userId, key: once.key, ...fresh })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'key'])
        .doUpdateSet({ ...fresh, status: null, answer: null, response: null, created_at: sql`now()` })
        .where('idempotency_keys.created_at', '<', expiry()),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  return (await firstAnswer(trx, once))!;
}

/**
 * The answer kept for the key, read before the write's checks so a repeated attempt is answered as the first was even
 * when the record type or the data changed since; null when the key is new (or expired). A 422 when the key was used
 * for a different request.
 */
export async function firstAnswer(db: Kysely<DB>, claim: Claim): Promise<FirstAnswer | null> {
  const first = await db
    .selectFrom('idempotency_keys')
    .select(['scope', 'fingerprint', 'status', 'answer', 'response'])
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .where('created_at', '>=', expiry())
    .executeTakeFirst();
  if (!first) return null;
  // Keys kept before fingerprints (migration 031) have only the kind of write to compare.
  if (first.scope !== claim.scope || (first.fingerprint !== null && first.fingerprint !== claim.fingerprint))
    throw fieldError(
      'idempotency_key',
      'This Idempotency-Key was already used for a different request (another method, address or body). ' +
        'Send each change with a key of its own.',
    );
  if (first.response !== null) {
    const { data, message } = JSON.parse(first.response);
    return { record: data, message, sent: { status: first.status!, body: first.response } };
  }
  return (typeof first.answer === 'string' ? JSON.parse(first.answer) : first.answer) as StoredAnswer;
}

/** Keeps the first attempt's answer beside its key, in the write's transaction. */
export async function keep(trx: Kysely<DB>, claim: Claim, answer: StoredAnswer): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(answer) })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .execute();
}

/** Once the first answer is sent: its status and body as sent, for every later attempt (the stored record goes). */
export async function rememberSent(db: Kysely<DB>, claim: Claim, status: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status, response: body, answer: null })
    .where('user_id', '=', claim.userId)
    .where('key', '=', claim.key)
    .execute();
}

/** Removes the keys past IDEMPOTENCY_KEY_DAYS; returns how many. */
export async function purgeExpiredKeys(db: Kysely<DB>): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', expiry()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The job that removes expired keys, on the app's job worker. */
export const idempotencyFeature: Feature = {
  plugin: async (app, { ctx }) => {
    app.jobs.every(IDEMPOTENCY_PURGE_JOB, PURGE_EVERY_MS, async () => {
      const removed = await purgeExpiredKeys(ctx.db);
      if (removed) app.log.info({ removed }, `Removed Idempotency-Keys older than ${IDEMPOTENCY_KEY_DAYS} days`);
    });
  },
};
