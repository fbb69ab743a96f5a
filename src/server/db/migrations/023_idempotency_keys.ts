import { type Kysely, sql } from 'kysely';

/**
 * The answers of writes sent with an `Idempotency-Key` (records/idempotency.ts): a browser that captured records with
 * no connection sends each with a key of its own, and sends it again when it cannot know whether the first attempt
 * arrived; the second attempt gets the first answer instead of writing a second record. Keys are per person, so the
 * same key from someone else is another request.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table idempotency_keys (
      user_id integer not null references users (id) on delete cascade,
      key text not null,
      scope text not null,
      status integer,
      answer jsonb,
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    );
    create index idempotency_keys_created_idx on idempotency_keys (created_at);
  `.execute(db);
}
