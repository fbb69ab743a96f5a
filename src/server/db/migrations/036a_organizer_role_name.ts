import { type Kysely, sql } from 'kysely';

/**
 * The seeded organizers' role is called "Organizer" (it was "User", which read as "any user"); its slug stays `user`.
 * An installation that renamed it keeps its own name.
 */
export async function up(db: Kysely<unknown>) {
  await sql`update roles set name = 'Organizer', updated_at = now() where slug = 'user' and name = 'User'`.execute(db);
}
