import { type Kysely, sql } from 'kysely';
import { GIN_PENDING_LIST_KB } from '../../schemas/indexes.js';

/**
 * The regions containing a site, kept on the site's row (`sites.in_region_ids`, ascending ids) beside `site_regions`,
 * so the turf rule (regions/turf.ts) is a test of the row itself, `in_region_ids && <the person's turf>`, served by
 * a GIN index, instead of a join to `site_regions` for every site a list reads (docs/benchmarks.md "Turf").
 *
 * Kept by triggers on `site_regions`, whatever writes it (region placement in regions/assign.ts, cascades, raw SQL):
 * each statement recomputes the arrays of the sites it touched from what `site_regions` holds then, writing only
 * those that differ. Not a field of the site (hidden from records, sites-resource.ts): `region_ids` is.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table sites add column in_region_ids integer[] not null default '{}';
    update sites s set in_region_ids = g.ids
      from (select site_id, array_agg(region_id order by region_id) as ids from site_regions group by site_id) g
      where g.site_id = s.id;
    -- A short pending list, as every GIN index here: the embedded database never vacuums (schemas/indexes.ts).
    create index sites_in_region_ids_idx on sites using gin (in_region_ids) with (gin_pending_list_limit = ${sql.lit(GIN_PENDING_LIST_KB)});

    create function site_region_ids_refresh(site_ids integer[]) returns void language sql as $fn$
      update sites s set in_region_ids = x.ids
      from (
        select c.id, array(select g.region_id from site_regions g where g.site_id = c.id order by 1) as ids
        from (select distinct unnest(site_ids) as id) c
      ) x
      where s.id = x.id and s.in_region_ids is distinct from x.ids;
    $fn$;

    create function site_region_ids_changed() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        perform site_region_ids_refresh(array(select n.site_id from new_rows n));
      elsif tg_op = 'UPDATE' then
        perform site_region_ids_refresh(array(select n.site_id from new_rows n union select o.site_id from old_rows o));
      elsif tg_op = 'DELETE' then
        perform site_region_ids_refresh(array(select o.site_id from old_rows o));
      else
        update sites set in_region_ids = '{}' where in_region_ids <> '{}';
      end if;
      return null;
    end
    $fn$;
    create trigger site_region_ids_insert after insert on site_regions
      referencing new table as new_rows for each statement execute function site_region_ids_changed();
    create trigger site_region_ids_update after update on site_regions
      referencing old table as old_rows new table as new_rows for each statement execute function site_region_ids_changed();
    create trigger site_region_ids_delete after delete on site_regions
      referencing old table as old_rows for each statement execute function site_region_ids_changed();
    create trigger site_region_ids_truncate after truncate on site_regions
      for each statement execute function site_region_ids_changed();
  `.execute(db);
}
