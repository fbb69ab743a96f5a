import { type RawBuilder, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import { turfCondition } from '../regions/turf.js';

/**
 * Which campaigns a person limited to a turf reads: those targeting a site of their turf or a contractor working
 * there (`campaign` is the campaign id column). `undefined` for everyone else: no condition at all. Cards are read
 * with their campaign.
 */
export function campaignsInTurf(
  user: AuthUser,
  campaign: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
): RawBuilder<boolean> | undefined {
  const site = turfCondition(user, 'site', sql.ref('cs.site_id'));
  const contractor = turfCondition(user, 'contractor', sql.ref('cc.contractor_id'));
  if (!site || !contractor) return undefined;
  return sql<boolean>`(exists (select 1 from campaign_sites cs where cs.campaign_id = ${campaign} and ${site})
    or exists (select 1 from campaign_contractors cc where cc.campaign_id = ${campaign} and ${contractor}))`;
}
