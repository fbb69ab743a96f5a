import { type Kysely, sql } from 'kysely';

/**
 * Per-site labour facts kept by the database itself (docs/reports.md "How a site counts as union or non-union work"):
 * `site_labour (site_id, has_union_contractor, has_non_union_contractor)` says whether any contractor linked to the
 * site (its `site_contractors` links and its general contractor) that is not soft-deleted is of type `union` /
 * `non-union`. A site with neither has no row. The market-share report reads it instead of re-deriving every site's
 * labour from all the links on every request (src/server/reports/labour.ts), for people who may read both contractor
 * categories; for others it still derives the facts from the contractors they may read.
 *
 * A table of its own rather than columns on `sites`: the record service shows every column of a site to whoever may
 * read the site, and `has_non_union_contractor` must not reach a person without `contractor:read:non-union`.
 *
 * Kept right by triggers, whatever writes (the record service, imports, raw SQL):
 * - `site_contractors` insert / update / delete (per statement, over the transition tables, so a bulk insert of
 *   links refreshes each site once) and truncate (full rebuild);
 * - `sites` insert (per statement) and update of `general_contractor_id` (per row, only when it changed);
 * - `contractors` update of `type` or of `deleted_at` going from/to null (per row, only when it matters); a contractor
 *   deleted for good reaches the sites through the foreign keys (links cascade, general contractor set null),
 *   which fire the triggers above.
 * Deleting a site removes its row (foreign key, cascade).
 *
 * On PostgreSQL with concurrent writers, a refresh first locks the sites it recomputes (`for no key update`; the
 * record service has usually locked them already by updating them) and the contractors the statement has just linked
 * (`for share`, which waits for a transaction changing such a contractor's type: that transaction cannot see the new
 * link, so it would not refresh the site), then reads the links in a new snapshot. Two transactions touching the same
 * site, or linking a contractor while another changes its type, are thus serialised instead of the later one writing
 * facts computed before the other committed.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table site_labour (
      site_id integer primary key references sites (id) on delete cascade,
      has_union_contractor boolean not null default false,
      has_non_union_contractor boolean not null default false
    );

    create function site_labour_refresh(site_ids integer[], linked_contractor_ids integer[] default '{}') returns void
    language plpgsql as $fn$
    begin
      if site_ids is null or cardinality(site_ids) = 0 then
        return;
      end if;
      perform 1 from sites s where s.id = any (site_ids) order by s.id for no key update;
      if cardinality(linked_contractor_ids) > 0 then
        perform 1 from contractors c where c.id = any (linked_contractor_ids) order by c.id for share;
      end if;
      with facts as (
        select x.site_id, bool_or(c.type = 'union') as has_union, bool_or(c.type = 'non-union') as has_non_union
        from (
          select sc.site_id, sc.contractor_id from site_contractors sc where sc.site_id = any (site_ids)
          union all
          select s.id, s.general_contractor_id from sites s where s.id = any (site_ids) and s.general_contractor_id is not null
        ) x
        join contractors c on c.id = x.contractor_id
        where c.deleted_at is null and c.type in ('union', 'non-union')
        group by x.site_id
      ), gone as (
        delete from site_labour l
        where l.site_id = any (site_ids) and not exists (select 1 from facts f where f.site_id = l.site_id)
      )
      insert into site_labour as l (site_id, has_union_contractor, has_non_union_contractor)
      select f.site_id, f.has_union, f.has_non_union from facts f
      on conflict (site_id) do update
        set has_union_contractor = excluded.has_union_contractor, has_non_union_contractor = excluded.has_non_union_contractor
        where (l.has_union_contractor, l.has_non_union_contractor) is distinct from (excluded.has_union_contractor, excluded.has_non_union_contractor);
    end
    $fn$;

    create function site_labour_rebuild() returns void language plpgsql as $fn$
    begin
      delete from site_labour;
      insert into site_labour (site_id, has_union_contractor, has_non_union_contractor)
      select x.site_id, bool_or(c.type = 'union'), bool_or(c.type = 'non-union')
      from (
        select sc.site_id, sc.contractor_id from site_contractors sc
        union all
        select s.id, s.general_contractor_id from sites s where s.general_contractor_id is not null
      ) x
      join contractors c on c.id = x.contractor_id
      where c.deleted_at is null and c.type in ('union', 'non-union')
      group by x.site_id;
    end
    $fn$;

    create function site_labour_links_changed() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        perform site_labour_refresh(array(select distinct n.site_id from new_rows n), array(select distinct n.contractor_id from new_rows n));
      elsif tg_op = 'UPDATE' then
        perform site_labour_refresh(
          array(
            select n.site_id from new_rows n join old_rows o on o.id = n.id
              where (n.site_id, n.contractor_id) is distinct from (o.site_id, o.contractor_id)
            union
            select o.site_id from new_rows n join old_rows o on o.id = n.id
              where (n.site_id, n.contractor_id) is distinct from (o.site_id, o.contractor_id)),
          array(
            select distinct n.contractor_id from new_rows n join old_rows o on o.id = n.id
              where (n.site_id, n.contractor_id) is distinct from (o.site_id, o.contractor_id)));
      elsif tg_op = 'DELETE' then
        perform site_labour_refresh(array(select distinct o.site_id from old_rows o));
      elsif tg_op = 'TRUNCATE' then
        perform site_labour_rebuild();
      end if;
      return null;
    end
    $fn$;

    create trigger site_labour_links_insert after insert on site_contractors
      referencing new table as new_rows for each statement execute function site_labour_links_changed();
    create trigger site_labour_links_update after update on site_contractors
      referencing old table as old_rows new table as new_rows for each statement execute function site_labour_links_changed();
    create trigger site_labour_links_delete after delete on site_contractors
      referencing old table as old_rows for each statement execute function site_labour_links_changed();
    create trigger site_labour_links_truncate after truncate on site_contractors
      for each statement execute function site_labour_links_changed();

    create function site_labour_sites_inserted() returns trigger language plpgsql as $fn$
    begin
      perform site_labour_refresh(
        array(select n.id from new_rows n where n.general_contractor_id is not null),
        array(select distinct n.general_contractor_id from new_rows n where n.general_contractor_id is not null));
      return null;
    end
    $fn$;
    create trigger site_labour_sites_insert after insert on sites
      referencing new table as new_rows for each statement execute function site_labour_sites_inserted();

    create function site_labour_site_changed() returns trigger language plpgsql as $fn$
    begin
      perform site_labour_refresh(array[new.id], array_remove(array[new.general_contractor_id], null));
      return null;
    end
    $fn$;
    create trigger site_labour_general_contractor after update of general_contractor_id on sites
      for each row when (old.general_contractor_id is distinct from new.general_contractor_id)
      execute function site_labour_site_changed();

    create function site_labour_contractor_changed() returns trigger language plpgsql as $fn$
    begin
      perform site_labour_refresh(array(
        select sc.site_id from site_contractors sc where sc.contractor_id = new.id
        union
        select s.id from sites s where s.general_contractor_id = new.id));
      return null;
    end
    $fn$;
    create trigger site_labour_contractor after update of type, deleted_at on contractors
      for each row when (
        (old.type is distinct from new.type or (old.deleted_at is null) <> (new.deleted_at is null))
        and (old.type in ('union', 'non-union') or new.type in ('union', 'non-union')))
      execute function site_labour_contractor_changed();

    -- The sites of a general contractor (the trigger above, and the foreign key's "set null" when a contractor is
    -- deleted for good).
    create index sites_general_contractor_idx on sites (general_contractor_id) where general_contractor_id is not null;
    -- The market share's filters on a trade and a building type (sites by type, created_at and region_id are indexed
    -- since 002_records; site_trades only had its (site_id, trade_id) key).
    create index site_trades_trade_idx on site_trades (trade_id);
    create index sites_building_type_idx on sites (building_type_id);

    select site_labour_rebuild();
  `.execute(db);
}
