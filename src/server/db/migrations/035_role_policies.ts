import { type Kysely, sql } from 'kysely';

/**
 * The access policy (docs/security.md "The access policy"): each role keeps its row and field rules by record type
 * (`roles.policy`, common/access-rules.ts RolePolicy) beside its permission strings. The seeded organizer role
 * (`user`) edits and deletes only the notes, tasks and documents it wrote or is assigned, as a new installation's does.
 * The indexes serve the rules "their own" and "their team's" (the people and teams a row names, and the work that
 * hangs on it).
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table roles add column policy jsonb not null default '{}'::jsonb`.execute(db);
  const ownWork = { update: 'own', delete: 'own' };
  const organizer = { note: ownWork, task: ownWork, document: ownWork, attachment: ownWork };
  await sql`update roles set policy = ${JSON.stringify(organizer)}::jsonb where slug = 'user'`.execute(db);
  await sql`
    create index if not exists sites_user_idx on sites (user_id);
    create index if not exists sites_team_idx on sites (team_id);
    create index if not exists custom_records_user_idx on custom_records (user_id);
    create index if not exists custom_records_team_idx on custom_records (team_id);
    create index if not exists tasks_user_idx on tasks (user_id);
    create index if not exists visits_user_idx on visits (user_id);
  `.execute(db);
}
