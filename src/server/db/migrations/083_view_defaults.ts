import { type Kysely, sql } from 'kysely';

/**
 * Default views kept by the server (issue 32, docs/views.md "Default views"):
 * - A role has at most one default view of each record type. `view_role_defaults` names the roles a view is the
 *   default of; the views feature moves a role's default from one view to another when it is set again. Where
 *   several views were a role's default of one type, the newest (the one the app opened) stays.
 * - `view_user_defaults`: the view a person chose to open a type's list in, over their role's default.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    delete from view_role_defaults d
    using views v
    where v.id = d.view_id
      and exists (
        select 1 from view_role_defaults other join views ov on ov.id = other.view_id
        where other.role_id = d.role_id and ov.record_type = v.record_type and ov.deleted_at is null and ov.id > v.id
      )`.execute(db);
  await sql`
    create table view_user_defaults (
      user_id integer not null references users (id) on delete cascade,
      record_type text not null,
      view_id integer not null references views (id) on delete cascade,
      updated_at timestamptz not null default now(),
      primary key (user_id, record_type)
    )`.execute(db);
  await sql`create index view_user_defaults_view_idx on view_user_defaults (view_id)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table if exists view_user_defaults`.execute(db);
}
