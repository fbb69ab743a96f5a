import { type Kysely, sql } from 'kysely';

/**
 * The market share of all sites, by region and by trade, counted ahead by the database (docs/reports.md "How the
 * market share is counted"). The report as a person who may read every site and both contractor types opens it (no
 * filter) reads these few rows instead of grouping every site and every region or trade link on each request
 * (src/server/reports/market-share-counts.ts); any filter, or a person who reads less, gets the query over the sites.
 *
 * - `market_share_sites (site_id, labour, value, hours, region_ids, trade_ids)`: what each site that is not
 *   soft-deleted adds to the counts, as last counted. `labour` is the one definition of src/server/reports/labour.ts
 *   for a person who reads every contractor (site_labour's facts, else the site's own type); value and hours are
 *   the site's estimates (0 when unknown).
 * - `market_share_counts (grouping, key, labour, sites, value, hours)`: changes to the counts, summed by whoever
 *   reads them; `grouping` is `region`, `trade` or `all` (the totals, each site once), `key` the region or trade (null:
 *   sites with none). Only rows are added when sites change, so concurrent writers never wait for each other on a
 *   shared total; the reader folds them into one row per count now and then (`market_share_compact`).
 *
 * Kept by triggers, whatever writes: `market_share_refresh(site_ids)` counts the sites again from `sites`,
 * `site_labour`, `site_regions` and `site_trades`, adds the difference from their last count and stores the new one.
 * It runs after every statement on those tables that touches a site (per statement, over the transition tables, so
 * a batch of imported sites is counted once per statement); a truncate counts everything again. Because each run
 * recounts from what is there now, the order in which the triggers of one statement fire does not matter, and a site
 * deleted for good (its links cascading first) is taken out by whichever run finds it gone.
 *
 * On PostgreSQL with concurrent writers a refresh first locks the sites it recounts (`for no key update`, as
 * site_labour_refresh does; the record service has usually locked them already), then reads in a new snapshot: two
 * transactions changing the same site are serialised, the later one counting after the other committed.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table market_share_sites (
      site_id integer primary key,
      labour text not null,
      value numeric not null,
      hours numeric not null,
      region_ids integer[] not null,
      trade_ids integer[] not null
    );

    create table market_share_counts (
      grouping text not null,
      key integer,
      labour text not null,
      sites integer not null,
      value numeric not null,
      hours numeric not null
    );

    -- What a site adds to the counts now (the labour as in src/server/reports/labour.ts, for a person who reads every
    -- contractor).
    create view market_share_site_facts as
    select s.id as site_id,
      case when k.has_union_contractor then 'union'
        when k.has_non_union_contractor then 'non-union'
        when s.type in ('union', 'pla') then 'union'
        when s.type = 'non-union' then 'non-union'
        else 'unknown' end as labour,
      coalesce(s.estimated_value, 0) as value,
      coalesce(s.estimated_hours, 0) as hours,
      array(select g.region_id from site_regions g where g.site_id = s.id order by 1) as region_ids,
      array(select g.trade_id from site_trades g where g.site_id = s.id order by 1) as trade_ids
    from sites s left join site_labour k on k.site_id = s.id
    where s.deleted_at is null;

    -- The counts a site adds to: the totals once, each of its regions (or none) and each of its trades (or none).
    create function market_share_keys(region_ids integer[], trade_ids integer[]) returns table (count_grouping text, count_key integer)
    language sql immutable as $fn$
      select 'all'::text, null::integer
      union all
      select 'region', r from unnest(case when cardinality(region_ids) = 0 then array[null::integer] else region_ids end) r
      union all
      select 'trade', t from unnest(case when cardinality(trade_ids) = 0 then array[null::integer] else trade_ids end) t
    $fn$;

    create function market_share_refresh(site_ids integer[]) returns void language plpgsql as $fn$
    begin
      if site_ids is null or cardinality(site_ids) = 0 then
        return;
      end if;
      perform 1 from sites s where s.id in (select unnest(site_ids)) order by s.id for no key update;
      with ids as (
        select distinct unnest(site_ids) as site_id
      ), old as (
        select m.* from market_share_sites m where m.site_id in (select site_id from ids) for update
      ), fresh as (
        select f.* from market_share_site_facts f where f.site_id in (select site_id from ids)
      ), saved as (
        insert into market_share_sites as m select * from fresh
        on conflict (site_id) do update
          set labour = excluded.labour, value = excluded.value, hours = excluded.hours, region_ids = excluded.region_ids, trade_ids = excluded.trade_ids
          where (m.labour, m.value, m.hours, m.region_ids, m.trade_ids) is distinct from (excluded.labour, excluded.value, excluded.hours, excluded.region_ids, excluded.trade_ids)
      ), gone as (
        delete from market_share_sites m
        where m.site_id in (select site_id from ids)
          and not exists (select 1 from sites s where s.id = m.site_id and s.deleted_at is null)
      ), change as (
        select 1 as n, f.labour, f.value, f.hours, f.region_ids, f.trade_ids from fresh f
        union all
        select -1, o.labour, o.value, o.hours, o.region_ids, o.trade_ids from old o
      )
      insert into market_share_counts (grouping, key, labour, sites, value, hours)
      select k.grouping, k.key, c.labour, sum(c.n), sum(c.n * c.value), sum(c.n * c.hours)
      from change c
      cross join lateral market_share_keys(c.region_ids, c.trade_ids) k (grouping, key)
      group by 1, 2, 3
      having sum(c.n) <> 0 or sum(c.n * c.value) <> 0 or sum(c.n * c.hours) <> 0;
    end
    $fn$;

    create function market_share_rebuild() returns void language plpgsql as $fn$
    begin
      delete from market_share_counts;
      delete from market_share_sites;
      insert into market_share_sites select * from market_share_site_facts;
      insert into market_share_counts (grouping, key, labour, sites, value, hours)
      select k.grouping, k.key, m.labour, count(*), sum(m.value), sum(m.hours)
      from market_share_sites m
      cross join lateral market_share_keys(m.region_ids, m.trade_ids) k (grouping, key)
      group by 1, 2, 3;
    end
    $fn$;

    -- Folds the changes of one grouping into one row per count. Safe beside writers and other compactions: it
    -- deletes only the rows it saw, and a row another compaction deleted first is skipped (and not summed).
    create function market_share_compact(grouping_name text) returns void language sql as $fn$
      with gone as (
        delete from market_share_counts c where c.grouping = grouping_name
        returning c.key, c.labour, c.sites, c.value, c.hours
      )
      insert into market_share_counts (grouping, key, labour, sites, value, hours)
      select grouping_name, key, labour, sum(sites), sum(value), sum(hours) from gone
      group by key, labour
      having sum(sites) <> 0 or sum(value) <> 0 or sum(hours) <> 0;
    $fn$;

    -- sites: inserted, deleted, or changed in what they add (type, estimates, soft delete).
    create function market_share_sites_changed() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        perform market_share_refresh(array(select n.id from new_rows n));
      elsif tg_op = 'UPDATE' then
        -- (except, not a join of the two transition tables: the planner has no statistics on them and may loop)
        perform market_share_refresh(array(
          select x.id from (
            select n.id, n.type, n.estimated_value, n.estimated_hours, n.deleted_at is null from new_rows n
            except
            select o.id, o.type, o.estimated_value, o.estimated_hours, o.deleted_at is null from old_rows o
          ) x));
      elsif tg_op = 'DELETE' then
        perform market_share_refresh(array(select o.id from old_rows o));
      else
        perform market_share_rebuild();
      end if;
      return null;
    end
    $fn$;
    create trigger market_share_sites_insert after insert on sites
      referencing new table as new_rows for each statement execute function market_share_sites_changed();
    create trigger market_share_sites_update after update on sites
      referencing old table as old_rows new table as new_rows for each statement execute function market_share_sites_changed();
    create trigger market_share_sites_delete after delete on sites
      referencing old table as old_rows for each statement execute function market_share_sites_changed();
    create trigger market_share_sites_truncate after truncate on sites
      for each statement execute function market_share_sites_changed();

    -- site_labour, site_regions, site_trades: every site of a changed row, before and after.
    create function market_share_site_rows_changed() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        perform market_share_refresh(array(select distinct n.site_id from new_rows n));
      elsif tg_op = 'UPDATE' then
        perform market_share_refresh(array(select n.site_id from new_rows n union select o.site_id from old_rows o));
      elsif tg_op = 'DELETE' then
        perform market_share_refresh(array(select distinct o.site_id from old_rows o));
      else
        perform market_share_rebuild();
      end if;
      return null;
    end
    $fn$;
  `.execute(db);
  for (const table of ['site_labour', 'site_regions', 'site_trades']) {
    const t = sql.id(table);
    const name = (event: string) => sql.id(`market_share_${table}_${event}`);
    await sql`
      create trigger ${name('insert')} after insert on ${t}
        referencing new table as new_rows for each statement execute function market_share_site_rows_changed();
      create trigger ${name('update')} after update on ${t}
        referencing old table as old_rows new table as new_rows for each statement execute function market_share_site_rows_changed();
      create trigger ${name('delete')} after delete on ${t}
        referencing old table as old_rows for each statement execute function market_share_site_rows_changed();
      create trigger ${name('truncate')} after truncate on ${t}
        for each statement execute function market_share_site_rows_changed();
    `.execute(db);
  }
  await sql`select market_share_rebuild()`.execute(db);
  // The task performance report and the dashboard count tasks done or due in a period (by assignee: tasks_assignee_idx).
  await sql`
    create index tasks_completed_idx on tasks (completed_at) where deleted_at is null and completed_at is not null;
    create index tasks_due_idx on tasks (due_at) where deleted_at is null;
  `.execute(db);
}
