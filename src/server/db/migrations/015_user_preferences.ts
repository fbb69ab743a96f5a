import { type Kysely, sql } from 'kysely';

/**
 * Each person's screen preferences, kept with the person so they follow them to another browser: a list's
 * columns (shown, widths) and density under `grid:<resource>` (POST /api/profile/preferences).
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table users add column preferences jsonb not null default '{}'`.execute(db);
}
