import { type Kysely, sql } from 'kysely';

/**
 * A public form may ask for a link to another record (an employer among the contractors): `offers` says, for each
 * such field, which records its search box offers: `{"contractor_id": {"view_id": 12}}`, or `{"view_id": null}` for
 * every record of the type the form's actor may read (docs/public-forms.md "Links to other records").
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table public_forms add column offers jsonb not null default '{}'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`alter table public_forms drop column offers`.execute(db);
}
