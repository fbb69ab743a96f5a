import { type Kysely, sql } from 'kysely';

/**
 * Each region's sites in the site list's two main orders, newest first (the default) and by name: `site_regions` keeps
 * a copy of its site's date, name key (`sites.name_key`), type and whether it is live, and two indexes hold each
 * region's live sites in those orders with their type. A person whose turf is one region then gets a page of their
 * sites by walking their region's part of an index, and its count from the index alone, as a person reading every
 * site does with the sites' own sort indexes (regions/turf-page.ts; docs/benchmarks.md "Turf"): the turf rule on the
 * site row (migration 026) cannot give the sites in order, so each page read every site of the turf.
 *
 * Kept by triggers, whatever writes either table: a row of `site_regions` takes its site's values when written; a
 * change of those values on `sites` is copied to the site's rows. The regions kept on the site's row
 * (migration 026) are worked out again only for rows whose site or region an update changed, not their copies.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table site_regions
      add column site_created_at timestamptz,
      add column site_name_key text,
      add column site_type text,
      add column site_live boolean not null default true;

    create or replace function site_region_ids_changed() returns trigger language plpgsql as $fn$
    declare
      moved integer[];
    begin
      if tg_op = 'INSERT' then
        perform site_region_ids_refresh(array(select n.site_id from new_rows n));
      elsif tg_op = 'UPDATE' then
        moved := array(
          select n.site_id from new_rows n where not exists (select 1 from old_rows o where o.site_id = n.site_id and o.region_id = n.region_id)
          union select o.site_id from old_rows o where not exists (select 1 from new_rows n where n.site_id = o.site_id and n.region_id = o.region_id));
        if cardinality(moved) > 0 then
          perform site_region_ids_refresh(moved);
        end if;
      elsif tg_op = 'DELETE' then
        perform site_region_ids_refresh(array(select o.site_id from old_rows o));
      else
        update sites set in_region_ids = '{}' where in_region_ids <> '{}';
      end if;
      return null;
    end
    $fn$;

    update site_regions g set site_created_at = s.created_at, site_name_key = s.name_key, site_type = s.type, site_live = s.deleted_at is null
      from sites s where s.id = g.site_id;

    create function site_regions_site_keys() returns trigger language plpgsql as $fn$
    begin
      select s.created_at, s.name_key, s.type, s.deleted_at is null into new.site_created_at, new.site_name_key, new.site_type, new.site_live
        from sites s where s.id = new.site_id;
      return new;
    end
    $fn$;
    create trigger site_regions_site_keys before insert or update of site_id on site_regions
      for each row execute function site_regions_site_keys();

    create function sites_keys_to_regions() returns trigger language plpgsql as $fn$
    begin
      update site_regions
        set site_created_at = new.created_at, site_name_key = new.name_key, site_type = new.type, site_live = new.deleted_at is null
        where site_id = new.id;
      return null;
    end
    $fn$;
    -- For each site whose copied values changed only: the regions kept on the site's row are written often.
    create trigger sites_keys_to_regions after update on sites for each row
      when (old.created_at is distinct from new.created_at or old.name_key is distinct from new.name_key or old.type is distinct from new.type
        or (old.deleted_at is null) <> (new.deleted_at is null))
      execute function sites_keys_to_regions();

    create index site_regions_by_date on site_regions (region_id, site_created_at, site_id) include (site_type) where site_live;
    create index site_regions_by_name on site_regions (region_id, site_name_key, site_id) include (site_type) where site_live;
  `.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`
    drop trigger if exists sites_keys_to_regions on sites;
    drop function if exists sites_keys_to_regions();
    drop trigger if exists site_regions_site_keys on site_regions;
    drop function if exists site_regions_site_keys();
    alter table site_regions drop column site_created_at, drop column site_name_key, drop column site_type, drop column site_live;
  `.execute(db);
}
