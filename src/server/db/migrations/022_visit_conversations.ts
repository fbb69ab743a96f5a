import { type Kysely, sql } from 'kysely';

/**
 * The people a visit's conversations were with (schemas/visit.json `contact_ids`, `recruit_ids`): the contacts talked
 * to or made and the recruits signed up, each a link to the record. Cards signed on a visit point at it from the card
 * (`campaign_cards.visit_id`).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table visit_contacts (
      visit_id integer not null references visits (id) on delete cascade,
      contact_id integer not null references contacts (id) on delete cascade,
      primary key (visit_id, contact_id)
    );
    create index visit_contacts_contact_idx on visit_contacts (contact_id);

    create table visit_recruits (
      visit_id integer not null references visits (id) on delete cascade,
      recruit_id integer not null references recruits (id) on delete cascade,
      primary key (visit_id, recruit_id)
    );
    create index visit_recruits_recruit_idx on visit_recruits (recruit_id);
  `.execute(db);
}
