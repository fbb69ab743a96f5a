import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';
import { pivot, schemaBacked } from '../schemas/schema-backed.js';
import { progressOf } from './progress.js';

/**
 * Campaigns toward a majority (fields: schemas/campaign.json; docs/campaigns.md): the contractors and sites targeted
 * (pivots campaign_contractors, campaign_sites), a unit size entered or estimated, and with every read the progress
 * of its cards against the 30% showing of interest and the 50% + 1 majority, with the cards over time: counts that
 * everyone who reads the campaign sees. Who signed is in the cards (campaign-cards-resource.ts).
 */
export const campaignsResource: ResourceDefinition = schemaBacked(
  builtinType('campaign', {
    table: 'campaigns',
    fields: {
      contractor_ids: pivot('campaign_contractors', 'campaign_id', 'contractor_id'),
      site_ids: pivot('campaign_sites', 'campaign_id', 'site_id'),
    },
    readOnly: ['progress', 'cards_over_time'],
    search: ['name', 'description'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    optionColumns: ['status'],
    hooks: {
      beforeWrite(values) {
        if (values.status === null) values.status = 'active';
        return values;
      },
      async present(records, db) {
        const progress = await progressOf(
          db,
          records.map((r) => ({ id: r.id, unit_size: r.unit_size })),
        );
        for (const record of records) Object.assign(record, progress.get(Number(record.id)));
      },
    },
  }),
);
