import { type Kysely, sql } from 'kysely';

/**
 * The list an assistant's answer counted or listed (docs/assistant.md "Follow-ups"): `assistant_messages.list` holds
 * its record type, its filters (as the list query takes them, and as the view filter structure) and how the answer
 * described it. A follow-up ("of those, which are union", "and in Kern County?") refines it, and "Save as view" makes a
 * saved view of it.
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table assistant_messages add column list jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`alter table assistant_messages drop column list`.execute(db);
}
