import { type Kysely, sql } from 'kysely';

/**
 * `user:log-for-others` (common/permissions.ts): naming someone else as who logged a visit or collected a card. Without
 * it that is always the signed-in person. The seeded administrator and leader roles get it (leaders record the cards
 * their organizers collected), as a new installation's do.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    update roles r set permissions = (
      select jsonb_agg(distinct p order by p) from (
        select jsonb_array_elements_text(r.permissions) as p
        union select 'user:log-for-others'
      ) x
    )
    where r.slug in ('super', 'admin', 'leader');
  `.execute(db);
}
