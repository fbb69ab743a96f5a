import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { schemaBacked } from '../schemas/schema-backed.js';
import { assertOwnerReadable } from '../work/owners.js';
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
    hooks: {
      async beforeWrite(values, { trx, user, records }) {
        if (
          'campaign_id' in values &&
          !(await records.access.liveAndReadable(trx, 'campaign', user, Number(values.campaign_id)))
        )
          throw fieldError(
            'campaign_id',
            `No campaign has the id ${String(values.campaign_id)}, or you may not read it.`,
          );
        for (const type of ['contact', 'recruit', 'visit'] as const) {
          const field = `${type}_id`;
          if (values[field] !== undefined && values[field] !== null)
            await assertOwnerReadable(records, trx, user, type, values[field], field, field);
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
