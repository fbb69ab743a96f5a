import { type Kysely, sql } from 'kysely';

/**
 * Realtime events the hub could not take when they were published (it was restarting, or out of reach), kept until it
 * answers again and sent then in the order they were kept (realtime/outbox.ts). Short-lived: rows leave once sent, or
 * after ten minutes, when a browser has long since fetched again.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create table if not exists realtime_outbox (
    id bigserial primary key,
    message text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table if exists realtime_outbox`.execute(db);
}
