import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked } from '../schemas/schema-backed.js';
import { assertOwnerReadable } from '../work/owners.js';
import { campaignsInTurf } from './campaign-rules.js';
import { campaignsResource } from './campaigns-resource.js';

/**
 * Cards signed in a campaign (fields: schemas/campaign-card.json): the worker, the day, who collected it (the person
 * recording it; naming another takes user:log-for-others), the contact or recruit and the visit where known. Each is a record with its
 * revisions. Its read permission, `campaign-card:read` (common/permissions.ts seesCardHolders), is what lets a
 * person see who signed: without it no read path (list, show, export, search, options, history, feed, realtime,
 * the assistant) names them, and the campaign shows its counts only.
 */
export const campaignCardsResource: ResourceDefinition = schemaBacked(
  builtinType('campaign-card', {
    table: 'campaign_cards',
    // The card's name where records are named: the worker's.
    readOnly: ['title'],
    search: ['worker_name', 'notes'],
    defaultSort: { field: 'signed_on', order: 'desc' },
    softDelete: true,
    optionLabel: 'worker_name',
    rowFilter: (user) => campaignsInTurf(user, sql.ref('t.campaign_id')),
    hooks: {
      async beforeWrite(values, { trx, user }) {
        if ('campaign_id' in values) await assertCampaignReadable(trx, user, values.campaign_id);
        for (const type of ['contact', 'recruit', 'visit'] as const) {
          const field = `${type}_id`;
          if (values[field] !== undefined && values[field] !== null)
            await assertOwnerReadable(trx, user, type, values[field], field, field);
        }
        return values;
      },
      present(records) {
        for (const record of records) record.title = record.worker_name;
      },
      // A card changes its campaign's counts: the campaign's readers are told, those without card read included.
      async afterCommit(card, { user, records }) {
        await announceCampaign(records, card.campaign_id, user);
      },
    },
  }),
  // "Collected by": the signed-in person unless they hold user:log-for-others.
  { loggedBy: 'user_id' },
);

/** A card is recorded in a live campaign the person may read (422 on `campaign_id` otherwise). */
async function assertCampaignReadable(db: Kysely<any>, user: AuthUser | null, id: unknown) {
  const turf = user ? campaignsInTurf(user, sql.ref('t.id')) : undefined;
  let query = db
    .selectFrom('campaigns as t')
    .select('t.id')
    .where('t.id', '=', Number(id))
    .where('t.deleted_at', 'is', null);
  if (turf) query = query.where(turf);
  if (!(await query.executeTakeFirst()))
    throw fieldError('campaign_id', `No campaign has the id ${String(id)}, or you may not read it.`);
}

/**
 * Tells everyone who reads the campaign that it changed (its progress and chart are part of it), through the one
 * event bus: the card's own event reaches only people who may read cards.
 */
async function announceCampaign(records: RecordService, id: unknown, user: AuthUser | null) {
  if (typeof id !== 'number') return;
  const row = await records.db
    .selectFrom('campaigns')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return;
  const [campaign] = await records.present(campaignsResource, [row]);
  records.announce(campaignsResource, 'updated', campaign, { user });
}
