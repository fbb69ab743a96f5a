import { type Kysely, sql } from 'kysely';

/**
 * The counter of writes to the tables a signed-in person is read from (sessions, users, roles, teams, team_user:
 * write-tracking.ts ACCOUNT_TABLES), moved by every process after such a write commits. Each process keeps sessions
 * and their person in memory while it is unchanged, so a sign-out or a change of role or permissions through one
 * process is refused by every other on the next request, while the writes of records no longer drop them.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create sequence if not exists om_account_writes`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop sequence if exists om_account_writes`.execute(db);
}
