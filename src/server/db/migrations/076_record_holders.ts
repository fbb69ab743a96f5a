import { type Kysely, sql } from 'kysely';

/**
 * Whose each site is, kept (issue 31; docs/security.md "The access policy"): a row for each person a site is "own"
 * of (a person field of the site names them, `via` 'field', or their task, visit or note hangs on it, 'work') and for
 * each team a team field names. The access policy's "own" and "team" rules of a type that keeps its holders
 * (ResourceDefinition.keepsHolders) are then one index range of this table instead of an `or` over the record's
 * fields and every kind of work on it; and a list under those rules counts and orders its page from here alone
 * (access/held-page.ts), reading the copies of the record's date, name key, category and liveness kept beside.
 *
 * Kept by the one writer: RecordService writes a record's rows again, in the write's transaction, whenever it or work
 * on it is written (access/holders.ts keepHolders). Team membership is not kept here: the team rule asks for the
 * people of one's teams when it runs. Filled here for the sites there are, from their built-in person and team
 * fields and the built-in work types' (a person field added to sites in the app joins at the site's next write).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table record_holders (
      record_type text not null,
      record_id integer not null,
      user_id integer,
      team_id integer,
      via text not null check (via in ('field', 'work')),
      created_at timestamptz,
      name_key text,
      category text,
      live boolean not null default true,
      check ((user_id is null) <> (team_id is null))
    );
    create index record_holders_record on record_holders (record_type, record_id);
    -- Not limited to live records: the rule reads deleted ones too (the trash); a list's page asks \`live\` of the copies.
    create index record_holders_by_user on record_holders (record_type, user_id)
      include (record_id, via, live, created_at, name_key, category) where user_id is not null;
    create index record_holders_by_team on record_holders (record_type, team_id)
      include (record_id, live, created_at, name_key, category) where team_id is not null;

    insert into record_holders (record_type, record_id, user_id, team_id, via, created_at, name_key, category, live)
    select distinct 'site', s.id, p.user_id, p.team_id, p.via, s.created_at, s.name_key, s.type, s.deleted_at is null
    from (
      select id as site_id, user_id, null::integer as team_id, 'field' as via from sites where user_id is not null
      union all select id, null, team_id, 'field' from sites where team_id is not null
      union all select taskable_id, assignee_id, null, 'work' from tasks
        where taskable_type = 'site' and taskable_id is not null and assignee_id is not null and deleted_at is null
      union all select taskable_id, user_id, null, 'work' from tasks
        where taskable_type = 'site' and taskable_id is not null and user_id is not null and deleted_at is null
      union all select site_id, user_id, null, 'work' from visits where user_id is not null and deleted_at is null
      union all select v.site_id, vu.user_id, null, 'work' from visits v join visit_users vu on vu.visit_id = v.id
        where v.deleted_at is null
      union all select notable_id, user_id, null, 'work' from notes
        where notable_type = 'site' and notable_id is not null and user_id is not null and deleted_at is null
    ) p join sites s on s.id = p.site_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop table if exists record_holders`.execute(db);
}
