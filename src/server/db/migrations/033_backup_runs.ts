import { type Kysely, sql } from 'kysely';

/**
 * Each backup made (docs/operations.md "Backups"): when, how it ended, where the archive went. A scheduled run has
 * the time of its schedule in `scheduled_for`, unique, so of several processes on one PostgreSQL only the first to
 * claim a time makes that backup. An administrator sees the last one on the system status (GET /api/system/status).
 */
export async function up(db: Kysely<unknown>) {
  await sql`create table backup_runs (
    id bigserial primary key,
    trigger text not null check (trigger in ('schedule', 'manual')),
    scheduled_for timestamptz unique,
    status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    target text,
    size_bytes bigint,
    file_count integer,
    message text,
    process text
  )`.execute(db);
  await sql`create index backup_runs_started_at on backup_runs (started_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table if exists backup_runs`.execute(db);
}
