import { type Kysely, sql } from 'kysely';

/**
 * Personal access tokens (docs/api.md "Personal access tokens"), as Laravel Sanctum keeps them: the token's SHA-256
 * only, its abilities, an optional expiry and the last time it was used. Revoking deletes the row.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table if not exists personal_access_tokens (
      id serial primary key,
      user_id integer not null references users (id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      abilities jsonb not null default '["*"]',
      expires_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index if not exists personal_access_tokens_user_idx on personal_access_tokens (user_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table if exists personal_access_tokens`.execute(db);
}
