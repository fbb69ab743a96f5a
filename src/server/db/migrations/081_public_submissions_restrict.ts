import { type Kysely, sql } from 'kysely';

/**
 * A public form with submissions cannot be deleted (docs/public-forms.md): a submission is a signed card's audit trail.
 * The service used to count the submissions and then delete, so one sent between the two was deleted with the form
 * (the key cascaded). The database now refuses the delete itself; the service answers its refusal with a 409.
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table public_submissions drop constraint public_submissions_form_id_fkey`.execute(db);
  await sql`alter table public_submissions add constraint public_submissions_form_id_fkey
    foreign key (form_id) references public_forms (id) on delete restrict`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`alter table public_submissions drop constraint public_submissions_form_id_fkey`.execute(db);
  await sql`alter table public_submissions add constraint public_submissions_form_id_fkey
    foreign key (form_id) references public_forms (id) on delete cascade`.execute(db);
}
