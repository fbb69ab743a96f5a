import { type Kysely, sql } from 'kysely';

/**
 * Counters every server process moves after its writes commit and reads before serving a kept answer, so the read
 * caches of several processes on one PostgreSQL never serve what another process has changed (write-tracking.ts).
 * `om_any_writes` also moves for writes no answer shows (sessions' last activity).
 */
export async function up(db: Kysely<unknown>) {
  await sql`create sequence if not exists om_data_writes`.execute(db);
  await sql`create sequence if not exists om_any_writes`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop sequence if exists om_data_writes`.execute(db);
  await sql`drop sequence if exists om_any_writes`.execute(db);
}
