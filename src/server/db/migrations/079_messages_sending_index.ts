import { type Kysely, sql } from 'kysely';

/**
 * The texting rate counts every copy still out (`sending`) as well as those the provider answered within the last
 * minute (docs/messages.md), so that a process that stopped mid-send, or another process, cannot push a minute past
 * MESSAGES_PER_MINUTE. This index finds the copies out without reading the whole table.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create index messages_sending_idx on messages (channel) where status = 'sending'`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index if exists messages_sending_idx`.execute(db);
}
