import { type Kysely, sql } from 'kysely';
import { type CampaignProgress, type CardsOnDay, campaignProgress } from '../../common/campaign-progress.js';
import type { DB } from '../db/schema.generated.js';

/**
 * The unit sizes estimated from head counts, by campaign: for each site (the campaign's target sites, or any site
 * when it names none) the latest visit that counted workers of the target contractors (of anyone, when it names no
 * contractor), and the workers those rows counted. Campaigns with no targets, or whose targets no visit counted,
 * are absent.
 */
export async function estimatedUnitSizes(db: Kysely<DB>, campaignIds: number[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  if (!campaignIds.length) return sizes;
  const { rows } = await sql<{ campaign_id: number; workers: number }>`
    with targets as (
      select c.id as campaign_id,
        array(select cc.contractor_id from campaign_contractors cc where cc.campaign_id = c.id) as contractors,
        array(select cs.site_id from campaign_sites cs where cs.campaign_id = c.id) as sites
      from campaigns c where c.id in (${sql.join(campaignIds)})
    ),
    latest as (
      select distinct on (t.campaign_id, v.site_id) t.campaign_id, v.id as visit_id, t.contractors
      from targets t
      join visits v on v.deleted_at is null and (cardinality(t.sites) = 0 or v.site_id = any (t.sites))
      join sites s on s.id = v.site_id and s.deleted_at is null
      where (cardinality(t.sites) > 0 or cardinality(t.contractors) > 0)
        and exists (select 1 from visit_head_counts h where h.visit_id = v.id and h.workers > 0
                    and (cardinality(t.contractors) = 0 or h.contractor_id = any (t.contractors)))
      order by t.campaign_id, v.site_id, v.visited_at desc, v.id desc
    )
    select l.campaign_id, sum(h.workers)::integer as workers
    from latest l
    join visit_head_counts h on h.visit_id = l.visit_id and (cardinality(l.contractors) = 0 or h.contractor_id = any (l.contractors))
    group by l.campaign_id`.execute(db);
  for (const row of rows) sizes.set(Number(row.campaign_id), Number(row.workers));
  return sizes;
}

/** Live cards by campaign and day signed, oldest first. */
async function cardsByDay(db: Kysely<DB>, campaignIds: number[]) {
  if (!campaignIds.length) return [];
  return db
    .selectFrom('campaign_cards')
    .select([
      'campaign_id',
      sql<string>`to_char(signed_on, 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*)::integer`.as('cards'),
    ])
    .where('campaign_id', 'in', campaignIds)
    .where('deleted_at', 'is', null)
    .groupBy(['campaign_id', 'signed_on'])
    .orderBy('signed_on')
    .execute();
}

/**
 * Each campaign's progress (its entered `unit_size`, the estimate, the cards) and its cards over time: counts only,
 * never who signed, so everyone who reads the campaign may see them.
 */
export async function progressOf(
  db: Kysely<DB>,
  campaigns: Array<{ id: number; unit_size?: number | null }>,
): Promise<Map<number, { progress: CampaignProgress; cards_over_time: CardsOnDay[] }>> {
  const ids = campaigns.map((c) => Number(c.id));
  const [estimates, days] = await Promise.all([estimatedUnitSizes(db, ids), cardsByDay(db, ids)]);
  const timelines = new Map<number, CardsOnDay[]>();
  for (const row of days) {
    const list = timelines.get(Number(row.campaign_id)) ?? [];
    const cards = Number(row.cards);
    list.push({ day: row.day, cards, total: (list.at(-1)?.total ?? 0) + cards });
    timelines.set(Number(row.campaign_id), list);
  }
  const result = new Map<number, { progress: CampaignProgress; cards_over_time: CardsOnDay[] }>();
  for (const campaign of campaigns) {
    const timeline = timelines.get(Number(campaign.id)) ?? [];
    const entered = campaign.unit_size === null || campaign.unit_size === undefined ? null : Number(campaign.unit_size);
    result.set(Number(campaign.id), {
      progress: campaignProgress(entered, estimates.get(Number(campaign.id)) ?? null, timeline.at(-1)?.total ?? 0),
      cards_over_time: timeline,
    });
  }
  return result;
}
