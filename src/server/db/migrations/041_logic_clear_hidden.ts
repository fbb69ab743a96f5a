import { type Kysely, sql } from 'kysely';

/**
 * Hidden is not erased (docs/records.md "Form logic"): a field a rule hides keeps its value unless the rule says
 * `clear_hidden` (the administrator's choice, per rule; off unless chosen).
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table logic_blocks add column if not exists clear_hidden boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`alter table logic_blocks drop column if exists clear_hidden`.execute(db);
}
