import { type Kysely, sql } from 'kysely';

/**
 * The market share counted once per transaction where a writer asks for it (reports/market-share-counts.ts
 * `countMarketShareOnce`). An import chunk writes its sites, then their labour, trades, regions and contractors:
 * each statement's trigger counted the same sites again (migration 009), up to five times per chunk. With the
 * transaction-local setting `om.market_share_deferred` on, `market_share_refresh` only notes the sites in
 * `market_share_pending`, and `market_share_flush()` counts the noted sites once, before the writer commits.
 * `market_share_recount` is the counting itself, as migration 009 made it.
 *
 * A transaction that noted sites sees only its own notes (and, should one ever commit without its flush, those left
 * behind, which the next flush then counts): concurrent writers never count each other's uncommitted sites.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table market_share_pending (site_id integer not null);

    alter function market_share_refresh(integer[]) rename to market_share_recount;

    create function market_share_refresh(site_ids integer[]) returns void language plpgsql as $fn$
    begin
      if site_ids is null or cardinality(site_ids) = 0 then
        return;
      end if;
      if current_setting('om.market_share_deferred', true) = 'on' then
        insert into market_share_pending (site_id) select distinct unnest(site_ids);
        return;
      end if;
      perform market_share_recount(site_ids);
    end
    $fn$;

    create function market_share_flush() returns void language plpgsql as $fn$
    declare
      noted integer[];
    begin
      with gone as (delete from market_share_pending returning site_id)
      select array_agg(distinct site_id) into noted from gone;
      perform market_share_recount(noted);
    end
    $fn$;
  `.execute(db);
}
