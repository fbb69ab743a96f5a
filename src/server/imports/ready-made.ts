import type { Kysely } from 'kysely';
import type { ImportRule } from '../../common/import-rules.js';
import type { ImportRecordType } from '../../common/import-targets.js';
import type { DB } from '../db/schema.generated.js';

export interface ReadyMadeImporter {
  slug: string;
  name: string;
  description: string;
  record_type: ImportRecordType;
  key_target: string;
  create_related: boolean;
  all_or_nothing: boolean;
  protected_fields: string[];
  defaults: Record<string, string>;
  columns: Array<{ header: string; target: string }>;
  rules: ImportRule[];
  /** The sample file in tests/fixtures that this importer reads. */
  sample: string;
}

const trade = (source: string, operator: ImportRule['operator'], value: string, tradeName: string): ImportRule => ({
  source,
  operator,
  value,
  action: 'trade-set',
  action_value: tradeName,
});

/**
 * The importers every installation starts with, one per common layout, each with a sample file in
 * tests/fixtures so a newcomer can import something in the first minute.
 */
export const READY_MADE_IMPORTERS: readonly ReadyMadeImporter[] = [
  {
    slug: 'vendor-job-sites',
    name: 'Job sites (Dodge-style vendor export)',
    description:
      "A data vendor's weekly job-site export (Dodge, ConstructConnect layouts). Matches sites on the vendor's report number, so importing next week's file updates them.",
    record_type: 'site',
    key_target: 'site.external_id',
    create_related: true,
    all_or_nothing: false,
    protected_fields: ['name', 'type', 'representative'],
    defaults: { source: 'dodge-data' },
    sample: 'vendor-sites.csv',
    columns: [
      { header: 'Dodge Report Number', target: 'site.external_id' },
      { header: 'Project Title', target: 'site.name' },
      { header: 'Project Type', target: 'site.type' },
      { header: 'Address', target: 'site.street' },
      { header: 'City', target: 'site.city' },
      { header: 'County', target: 'site.county' },
      { header: 'State', target: 'site.state' },
      { header: 'ZIP', target: 'site.postal_code' },
      { header: 'Latitude', target: 'site.latitude' },
      { header: 'Longitude', target: 'site.longitude' },
      { header: 'Bid Date', target: 'site.bid_date' },
      { header: 'Target Start Date', target: 'site.kickoff_date' },
      { header: 'Estimated Value', target: 'site.estimated_value' },
      { header: 'Project Stage', target: 'site.status' },
      { header: 'Owner Name', target: 'site.owner' },
      { header: 'Architect', target: 'site.representative' },
      { header: 'General Contractor', target: 'contractor.name' },
      { header: 'GC Phone', target: 'contractor.phone' },
      { header: 'Contact Name', target: 'contact_1.name' },
      { header: 'Contact Email', target: 'contact_1.email' },
      { header: 'Contact Phone', target: 'contact_1.phone' },
      { header: 'Description', target: 'site.notes_1' },
      { header: 'Work Type', target: 'site.craft' },
    ],
    rules: [
      trade('Description', 'string-contains', 'electrical', 'Electrical'),
      trade('Description', 'string-contains', 'plumbing', 'Plumbing'),
      trade('Description', 'string-contains', 'hvac', 'Sheet Metal'),
      trade('Project Title', 'string-start', 'solar', 'Electrical'),
      trade('Project Type', 'in', 'Public Works,PLA', 'Laborers'),
      trade('Estimated Value', 'gte', '50000000', 'Operating Engineers'),
    ],
  },
  {
    slug: 'contractor-list',
    name: 'Contractor list',
    description:
      'A list of contractors with their license number, union status, trade, local and main contact. Matches on the license number.',
    record_type: 'contractor',
    key_target: 'contractor.external_id',
    create_related: true,
    all_or_nothing: false,
    protected_fields: ['type'],
    defaults: {},
    sample: 'contractors.csv',
    columns: [
      { header: 'License #', target: 'contractor.external_id' },
      { header: 'Company Name', target: 'contractor.name' },
      { header: 'Phone', target: 'contractor.phone' },
      { header: 'Union Status', target: 'contractor.type' },
      { header: 'Street Address', target: 'contractor.street' },
      { header: 'City', target: 'contractor.city' },
      { header: 'State', target: 'contractor.state' },
      { header: 'Zip', target: 'contractor.postal_code' },
      { header: 'Primary Trade', target: 'craft' },
      { header: 'Union Local', target: 'union' },
      { header: 'Contact', target: 'contact_1.name' },
      { header: 'Contact Email', target: 'contact_1.email' },
      { header: 'Contact Phone', target: 'contact_1.phone' },
      { header: 'Notes', target: 'contractor.notes_1' },
    ],
    rules: [],
  },
  {
    slug: 'member-roster',
    name: 'Member roster',
    description:
      "A local's member roster: member number, name, contact details, classification, craft, employer and steward flag. Matches on the member number.",
    record_type: 'member',
    key_target: 'member.number',
    create_related: true,
    all_or_nothing: false,
    protected_fields: ['email', 'phone'],
    defaults: {},
    sample: 'member-roster.csv',
    columns: [
      { header: 'Member ID', target: 'member.number' },
      { header: 'Last Name', target: 'member.last_name' },
      { header: 'First Name', target: 'member.first_name' },
      { header: 'Email', target: 'member.email' },
      { header: 'Cell Phone', target: 'member.phone' },
      { header: 'Classification', target: 'classification' },
      { header: 'Local', target: 'union' },
      { header: 'Craft', target: 'craft' },
      { header: 'Employer', target: 'contractor.name' },
      { header: 'Initiation Date', target: 'member.joined_at' },
      { header: 'Steward', target: 'is_steward' },
    ],
    rules: [],
  },
];

/**
 * Adds the ready-made importers that are missing (by slug). Idempotent: run at every start; one an
 * administrator deleted stays deleted.
 */
export async function seedReadyMadeImporters(db: Kysely<DB>): Promise<number> {
  let added = 0;
  await db.transaction().execute(async (trx) => {
    const known = new Set(
      (await trx.selectFrom('importers').select('slug').where('slug', 'is not', null).execute()).map((r) => r.slug),
    );
    const last = await trx
      .selectFrom('importers')
      .select((eb) => eb.fn.max('position').as('max'))
      .executeTakeFirst();
    let position = Number(last?.max ?? -1) + 1;
    for (const importer of READY_MADE_IMPORTERS) {
      if (known.has(importer.slug)) continue;
      const row = await trx
        .insertInto('importers')
        .values({
          slug: importer.slug,
          name: importer.name,
          description: importer.description,
          record_type: importer.record_type,
          key_target: importer.key_target,
          create_related: importer.create_related,
          all_or_nothing: importer.all_or_nothing,
          protected_fields: JSON.stringify(importer.protected_fields),
          defaults: JSON.stringify(importer.defaults),
          position: position++,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('importer_columns')
        .values(
          importer.columns.map((c, i) => ({ importer_id: row.id, header: c.header, target: c.target, position: i })),
        )
        .execute();
      if (importer.rules.length) {
        await trx
          .insertInto('importer_rules')
          .values(importer.rules.map((r, i) => ({ importer_id: row.id, ...r, position: i })))
          .execute();
      }
      added++;
    }
  });
  return added;
}
