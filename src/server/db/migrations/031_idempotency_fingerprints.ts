import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys after the IETF draft (records/idempotency.ts): beside each key the fingerprint of its request
 * (SHA-256 of method, path and body), so the same key with another request is refused, and the first answer as it was
 * sent (`status` and `response`, its JSON text), so a repeated attempt gets it unchanged. `answer` (the written
 * record) is kept only until the answer is sent. Keys kept before this have no fingerprint: their kind of write
 * (`scope`) is compared, as before, until they expire.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table idempotency_keys
      add column fingerprint text,
      add column response text;
  `.execute(db);
}
