import type { Transaction } from 'kysely';
import { z } from 'zod';
import { turfSitePage } from '../access/turf-page.js';
import type { DB } from '../db/schema.generated.js';
import { ValidationError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { assignSiteRegions, assignSites } from '../regions/assign.js';
import { builtinType } from '../schemas/builtin-types.js';
import { pivot, schemaBacked, taggables } from '../schemas/schema-backed.js';

const siteContractors = z
  .array(
    z
      .object({
        contractor_id: z.coerce.number().int().positive(),
        trade_id: z.coerce.number().int().positive().nullable().optional(),
      })
      .strict(),
    { error: 'The contractors must be a list of {contractor_id, trade_id}.' },
  )
  .max(500);

/**
 * Job sites (fields: schemas/site.json). `type` is a site type slug and the permission category
 * (`site:read:union` reads union sites only). `contractors` (the general contractor aside) are
 * [{contractor_id, trade_id}], kept in site_contractors; `contractor_ids` lists them for filters
 * (filter[contractor_ids]=5: sites where contractor 5 works). A person limited to a turf (`site:read:turf`) reads the
 * sites inside it.
 */
export const sitesResource: ResourceDefinition = schemaBacked(
  builtinType('site', {
    table: 'sites',
    fields: {
      contractors: { storage: 'virtual', shape: siteContractors, filterable: false },
      // `contractors` (with their trades) is the field people set; this one lists their ids for filters.
      contractor_ids: {
        kind: 'integer[]',
        label: 'contractor ids',
        ...pivot('site_contractors', 'site_id', 'contractor_id'),
        references: { table: 'contractors', softDelete: true },
      },
      trade_ids: pivot('site_trades', 'site_id', 'trade_id'),
      contact_ids: pivot('site_contacts', 'site_id', 'contact_id'),
      region_ids: pivot('site_regions', 'site_id', 'region_id'),
      tag_ids: taggables('site'),
    },
    // contractor_ids follows `contractors`; import_id is set by imports.
    // region_ids is worked out from the coordinates on save.
    readOnly: ['contractor_ids', 'import_id', 'region_ids'],
    // The same ids kept on the row for the turf rule (migration 026): `region_ids` is what records show.
    // `name_key` is lower(name) kept on the row for lists ordered in one pass (migration 027).
    hidden: ['in_region_ids', 'name_key'],
    storedSortKeys: { name: 'name_key' },
    search: ['name', 'street', 'city', 'county', 'postal_code', 'owner', 'external_id'],
    defaultSort: { field: 'created_at', order: 'desc' },
    softDelete: true,
    categoryColumn: 'type',
    optionColumns: ['type', 'city'],
    orderedPage: turfSitePage,
    keepsHolders: true,
    hooks: {
      async beforeWrite(values, { trx }) {
        if (values.source === null) values.source = 'manual';
        if (values.prevailing_wage === null) values.prevailing_wage = false;
        if ('contractors' in values && values.contractors === null) values.contractors = [];
        if (Array.isArray(values.contractors) && values.contractors.length) {
          const contractorIds = [...new Set(values.contractors.map((c: any) => c.contractor_id))];
          const tradeIds = [...new Set(values.contractors.map((c: any) => c.trade_id).filter(Boolean))];
          const contractors = await trx
            .selectFrom('contractors')
            .select('id')
            .where('id', 'in', contractorIds)
            .where('deleted_at', 'is', null)
            .execute();
          const trades = tradeIds.length
            ? await trx
                .selectFrom('trades')
                .select('id')
                .where('id', 'in', tradeIds)
                .where('deleted_at', 'is', null)
                .execute()
            : [];
          if (contractors.length !== contractorIds.length || trades.length !== tradeIds.length) {
            throw new ValidationError({ contractors: ['A selected contractor or trade does not exist.'] });
          }
        }
        return values;
      },
      async afterWrite(record, { trx, action, values }) {
        if ((action === 'create' || action === 'update') && values && 'contractors' in values)
          await replaceContractors(trx, [{ id: record.id, contractors: values.contractors }]);
        // A site belongs to the regions containing it, worked out in the same transaction as the save.
        if (action === 'create' || (action === 'update' && values && ('latitude' in values || 'longitude' in values))) {
          await assignSiteRegions(trx, record.id, record.latitude, record.longitude);
        }
      },
      async afterWriteMany(writes, trx) {
        const withContractors = writes.filter((w) => w.ctx.values && 'contractors' in w.ctx.values);
        if (withContractors.length)
          await replaceContractors(
            trx,
            withContractors.map((w) => ({ id: w.record.id, contractors: w.ctx.values!.contractors })),
          );
        const moved = writes.filter(
          (w) =>
            w.ctx.action === 'create' || (w.ctx.values && ('latitude' in w.ctx.values || 'longitude' in w.ctx.values)),
        );
        if (moved.length)
          await assignSites(
            trx,
            moved.map((w) => w.record.id),
          );
      },
      async present(records, db) {
        const ids = records.map((r) => r.id);
        const links = ids.length
          ? await db
              .selectFrom('site_contractors')
              .select(['site_id', 'contractor_id', 'trade_id'])
              .where('site_id', 'in', ids)
              .orderBy('id')
              .execute()
          : [];
        const bySite = new Map<number, Array<{ contractor_id: number; trade_id: number | null }>>();
        for (const link of links)
          bySite.set(link.site_id, [
            ...(bySite.get(link.site_id) ?? []),
            { contractor_id: link.contractor_id, trade_id: link.trade_id },
          ]);
        for (const record of records) record.contractors = bySite.get(record.id) ?? [];
      },
    },
  }),
  { attachments: true },
);

/** Replaces the contractor links (`contractors`, the general contractor aside) of some sites. */
async function replaceContractors(
  trx: Transaction<DB>,
  sites: Array<{ id: number; contractors: Array<{ contractor_id: number; trade_id?: number | null }> | null }>,
) {
  await trx
    .deleteFrom('site_contractors')
    .where(
      'site_id',
      'in',
      sites.map((s) => s.id),
    )
    .execute();
  const rows = sites.flatMap((s) =>
    (s.contractors ?? []).map((c) => ({ site_id: s.id, contractor_id: c.contractor_id, trade_id: c.trade_id ?? null })),
  );
  for (let i = 0; i < rows.length; i += 5_000)
    await trx
      .insertInto('site_contractors')
      .values(rows.slice(i, i + 5_000))
      .execute();
}
