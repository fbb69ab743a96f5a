import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { countMarketShareOnce } from '../../src/server/db/market-share-once.js';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { requeueAbandoned } from '../../src/server/jobs/queue.js';
import { SimulatedCrash } from '../../src/server/jobs/worker.js';
import { vendorSitesCsv } from '../fixtures/generate.js';
import { fixture, importerId, runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient, testDatabaseUrl } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
const db = () => t.ctx.db;

beforeAll(async () => {
  t = await startTestApp();
  await seedReadyMadeImporters(t.database.db);
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

/** An importer made through the API. */
async function makeImporter(body: Record<string, unknown>) {
  const res = await admin.post('/api/importers', { create_related: true, ...body });
  if (res.status !== 201) throw new Error(`Creating the importer answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const csv = (rows: string[][]) =>
  rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n') + '\n';

describe('the vendor job-site importer', () => {
  let importId: number;

  it('creates every site with mapped fields, related records, revisions and a link to the import', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    const res = await upload(t, admin, '/api/imports', { importer_id: id }, [
      { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Your import has started.');
    expect(res.body.data).toMatchObject({
      status: 'pending',
      name: 'vendor-sites.csv',
      importer_name: 'Job sites (Dodge-style vendor export)',
    });
    expect(res.body.data.files[0]).toMatchObject({ name: 'vendor-sites.csv', encoding: 'utf8' });
    expect(JSON.stringify(res.body.data)).not.toContain(t.config.dataDir); // storage paths stay on the server
    await t.app.jobs.drain();
    const done = (await admin.get(`/api/imports/${res.body.data.id}`)).body.data;
    expect(done).toMatchObject({
      status: 'complete',
      created_count: 50,
      updated_count: 0,
      skipped_count: 0,
      failed_count: 0,
      processed_rows: 50,
      total_rows: 50,
      progress: 100,
    });
    importId = done.id;

    // Row 1 of the file (line 2): 202600100000, Riverfront Water Treatment Plant Upgrade, Non-Union, ...
    const list = await admin.get('/api/sites?filter[external_id]=202600100000');
    expect(list.body.meta.total).toBe(1);
    const site = list.body.data[0];
    expect(site).toMatchObject({
      name: 'Riverfront Water Treatment Plant Upgrade',
      type: 'non-union',
      street: '5577 Brand Blvd',
      city: 'Los Angeles',
      county: 'Los Angeles',
      state: 'CA',
      postal_code: '90012',
      latitude: 34.05656,
      longitude: -118.24538,
      estimated_value: 67_000_000,
      owner: 'Caltrans',
      representative: 'HOK',
      source: 'dodge-data',
      notes: 'Plumbing re-pipe and restroom ADA upgrades.',
    });
    expect(String(site.bid_date).slice(0, 10)).toBe('2026-10-15');
    expect(String(site.kickoff_date).slice(0, 10)).toBe('2026-05-09'); // 05/09/26
    // Status by name; trades from the Work Type column (Sheet Metal) and the rules (Description contains plumbing → Plumbing).
    const status = await db()
      .selectFrom('site_statuses')
      .select('name')
      .where('id', '=', site.site_status_id)
      .executeTakeFirstOrThrow();
    expect(status.name).toBe('Bidding');
    const trades = await db()
      .selectFrom('trades')
      .select('name')
      .where('id', 'in', site.trade_ids)
      .orderBy('name')
      .execute();
    expect(trades.map((r) => r.name)).toEqual(['Operating Engineers', 'Plumbing', 'Sheet Metal']); // $67M ≥ $50M rule too
    // The general contractor, created once for all the rows that name it, linked both ways.
    const gc = await db()
      .selectFrom('contractors')
      .selectAll()
      .where('id', '=', site.general_contractor_id)
      .executeTakeFirstOrThrow();
    expect(gc).toMatchObject({ name: 'Bernards', type: 'general' });
    expect(gc.phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/); // the GC Phone of the last row naming Bernards
    expect(await db().selectFrom('contractors').select('id').where('name', '=', 'Bernards').execute()).toHaveLength(1);
    expect(site.contractor_ids).toContain(gc.id);
    // The contact, flagged as a site contact.
    const contact = await db()
      .selectFrom('site_contacts as sc')
      .innerJoin('contacts as c', 'c.id', 'sc.contact_id')
      .selectAll('c')
      .select('sc.is_site_contact')
      .where('sc.site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({
      first_name: 'Grace',
      last_name: 'Davis',
      email: 'grace.davis@example.com',
      is_site_contact: true,
    });
    // Revision 'imported' with the import's id, and the row links to its import.
    const revisions = await db()
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_type', '=', 'site')
      .where('revisionable_id', '=', site.id)
      .execute();
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ action: 'imported', import_id: importId });
    expect((revisions[0].changes as any).name).toEqual([null, 'Riverfront Water Treatment Plant Upgrade']);
    const row = await db().selectFrom('sites').select('import_id').where('id', '=', site.id).executeTakeFirstOrThrow();
    expect(row.import_id).toBe(importId);
  });

  // The embedded database only (PostgreSQL has its autovacuum): the lists read after an import answer from their indexes.
  it.skipIf(Boolean(testDatabaseUrl()))(
    'leaves the sites it wrote vacuumed on the embedded database: every page marked all-visible',
    async () => {
      const { rows } = await sql<{
        pages: number;
        visible: number;
      }>`select (pg_relation_size('sites') / current_setting('block_size')::int)::int as pages, relallvisible as visible from pg_class where relname = 'sites'`.execute(
        db(),
      );
      expect(rows[0].pages).toBeGreaterThan(0);
      expect(rows[0].visible).toBe(rows[0].pages);
    },
  );

  it('places a row without coordinates at the centre of its postal code', async () => {
    // Row 3 (202600100002, Anaheim 92805) has no Latitude/Longitude in the file.
    const site = (await admin.get('/api/sites?filter[external_id]=202600100002')).body.data[0];
    const centre = zipcodes.lookup('92805')!;
    expect(site.latitude).toBe(centre.latitude);
    expect(site.longitude).toBe(centre.longitude);
    expect(site.estimated_value).toBe(116_250_000); // "$116,250,000.00"
    expect(String(site.bid_date).slice(0, 10)).toBe('2026-08-27'); // "Aug 27, 2026"
  });

  it('imports the same file again without duplicating: every row matches its site by the vendor id and is unchanged', async () => {
    const again = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
      { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
    ]);
    expect(again).toMatchObject({
      status: 'complete',
      created_count: 0,
      updated_count: 0,
      skipped_count: 50,
      failed_count: 0,
    });
    const total = await db()
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('external_id', 'like', '2026%')
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(50);
  });

  it('updates changed rows, and leaves protected fields a person edited by hand', async () => {
    const site = (await admin.get('/api/sites?filter[external_id]=202600100001')).body.data[0];
    // A person renames the site by hand; the importer protects `name`.
    const edited = await admin.post(`/api/sites/${site.id}`, { name: 'Airport MOB (renamed by organizer)' });
    expect(edited.status).toBe(200);
    const text = fixture('vendor-sites.csv')
      .toString('utf8')
      .replace('Airport Medical Office Building', 'Airport Medical Office Building Phase 2')
      .replace('"$155,000,000.00"', '"$160,000,000.00"');
    const result = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
      { name: 'vendor-sites-week-2.csv', content: text },
    ]);
    expect(result).toMatchObject({ created_count: 0, updated_count: 1, skipped_count: 49, failed_count: 0 });
    const after = (await admin.get(`/api/sites/${site.id}`)).body.data;
    expect(after.name).toBe('Airport MOB (renamed by organizer)');
    expect(after.estimated_value).toBe(160_000_000);
    const revision = await db()
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_id', '=', site.id)
      .where('import_id', '=', result.id)
      .executeTakeFirstOrThrow();
    expect(revision.action).toBe('imported');
    expect(revision.changes).toEqual({ estimated_value: [155_000_000, 160_000_000] });
  });

  it('undoes an import: puts back what it changed', async () => {
    const imports = (await admin.get('/api/imports?sort=id&order=desc')).body.data;
    const last = imports[0];
    expect(last.updated_count).toBe(1);
    const res = await admin.post(`/api/imports/${last.id}/undo`);
    expect(res.status).toBe(202);
    await t.app.jobs.drain();
    const site = (await admin.get('/api/sites?filter[external_id]=202600100001')).body.data[0];
    expect(site.estimated_value).toBe(155_000_000);
    expect(site.name).toBe('Airport MOB (renamed by organizer)');
    const shown = (await admin.get(`/api/imports/${last.id}`)).body.data;
    expect(shown.undo_status).toBe('complete');
    expect(shown.undone_at).toBeTruthy();
    expect((await admin.post(`/api/imports/${last.id}/undo`)).status).toBe(409);
  });

  it('undoes an import: removes what it created (sites, and the contractors and contacts it made)', async () => {
    const res = await admin.post(`/api/imports/${importId}/undo`);
    expect(res.status).toBe(202);
    await t.app.jobs.drain();
    const live = await db()
      .selectFrom('sites')
      .select('id')
      .where('import_id', '=', importId)
      .where('deleted_at', 'is', null)
      .execute();
    expect(live).toHaveLength(0);
    expect((await admin.get('/api/sites?filter[external_id]=202600100000')).body.meta.total).toBe(0);
    const bernards = await db()
      .selectFrom('contractors')
      .select('deleted_at')
      .where('name', '=', 'Bernards')
      .executeTakeFirstOrThrow();
    expect(bernards.deleted_at).not.toBeNull();
    const deletions = await db()
      .selectFrom('revisions')
      .select('id')
      .where('revisionable_type', '=', 'site')
      .where('action', '=', 'deleted')
      .execute();
    expect(deletions.length).toBe(50);
  });
});

describe('ready-made importers for contractors and members', () => {
  it('imports the contractor list: union status, trade, local and contact', async () => {
    const result = await runImport(t, admin, await importerId(t, 'contractor-list'), [
      { name: 'contractors.csv', content: fixture('contractors.csv') },
    ]);
    expect(result).toMatchObject({ status: 'complete', created_count: 20, failed_count: 0 });
    const contractor = await db()
      .selectFrom('contractors')
      .selectAll()
      .where('external_id', '=', '700000')
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(contractor.name).toBe('Clark Construction Group');
    expect(['union', 'non-union', 'general', 'none']).toContain(contractor.type);
    const links = await db()
      .selectFrom('contractor_contacts')
      .select('contact_id')
      .where('contractor_id', '=', contractor.id)
      .execute();
    expect(links).toHaveLength(1);
  });

  it('imports the member roster: classification, local, craft, employer and steward flag by name', async () => {
    const result = await runImport(t, admin, await importerId(t, 'member-roster'), [
      { name: 'member-roster.csv', content: fixture('member-roster.csv') },
    ]);
    expect(result).toMatchObject({ status: 'complete', created_count: 40, failed_count: 0 });
    const members = await db()
      .selectFrom('members')
      .selectAll()
      .where('member_number', 'like', 'M-%')
      .orderBy('member_number')
      .execute();
    expect(members).toHaveLength(40);
    const first = members.find((m) => m.member_number === 'M-10450')!;
    expect(first.is_steward).toBe(true); // every 6th row says Y, the first included
    expect(first.classification_id).toBeTruthy();
    expect(first.union_id).toBeTruthy();
    expect(first.trade_id).toBeTruthy();
    expect(first.contractor_id).toBeTruthy();
    expect(members.filter((m) => m.is_steward)).toHaveLength(7);
  });
});

describe('messy real files', () => {
  let messy: any;

  it('reads UTF-8 with BOM, blank lines, ragged rows, empty and duplicate headers and quoted line breaks, and reports each bad row with its line', async () => {
    const importer = await makeImporter({
      name: 'Messy vendor',
      record_type: 'site',
      key_target: 'site.external_id',
      columns: [
        { header: 'Project ID', target: 'site.external_id' },
        { header: 'Project Name', target: 'site.name' },
        { header: 'Column 3', target: '' },
        { header: 'City', target: 'site.city' },
        { header: 'Zip', target: 'site.postal_code' },
        { header: 'Bid Date', target: 'site.bid_date' },
        { header: 'Estimated Value', target: 'site.estimated_value' },
        { header: 'Contact Email', target: 'contact_1.email' },
        { header: 'Notes', target: 'site.notes_1' },
        { header: 'Notes (2)', target: 'site.notes_2' },
      ],
    });
    messy = await runImport(t, admin, importer.id, [
      { name: 'messy-bom-ragged.csv', content: fixture('messy-bom-ragged.csv') },
    ]);
    expect(messy.status).toBe('complete');
    const failures = (await admin.get(`/api/imports/${messy.id}/failures`)).body.data;
    const byLine = Object.fromEntries(failures.map((f: any) => [f.line, f.reason]));
    // Lines as the file has them: header 1, M-1 2, blank 3, M-2 4-5 (quoted line break), M-3 6, M-4 7, ...
    expect(byLine[7]).toMatch(/Bid date: "31\/31\/2026" is not a date/);
    expect(byLine[8]).toMatch(/email/i); // contact e-mail "not-an-email"
    expect(byLine[9]).toMatch(/Estimated value: "about a million" is not an amount/);
    expect(byLine[10]).toMatch(/name field is required/i); // M-7 has no project name
    expect(Object.keys(byLine).sort()).toEqual(['10', '7', '8', '9']);
    // M-1, M-2, M-3 (short row), M-8 (long row) created; the second M-1 updates the first.
    expect(messy).toMatchObject({ created_count: 4, updated_count: 1, failed_count: 4 });
    const m2 = (await admin.get('/api/sites?filter[external_id]=M-2')).body.data[0];
    expect(m2.name).toBe('Multi-line "quoted" project, phase 1');
    expect(m2.notes).toMatch(/Line one\r?\nLine two, with comma/);
    expect(m2.estimated_value).toBe(4_500_000);
    const m1 = (await admin.get('/api/sites?filter[external_id]=M-1')).body.data[0];
    expect(m1).toMatchObject({
      name: 'Harbor Pump Station (revised)',
      estimated_value: 3_200_000,
      notes: 'Same id again: an update',
    });
  });

  it('gives the failed rows as a CSV error report with line, reason and the original cells', async () => {
    const res = await admin.post(`/api/imports/${messy.id}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('errors.csv');
    const lines = String(res.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'File,Line,Reason,Project ID,Project Name,Column 3,City,Zip,Bid Date,Estimated Value,Contact Email,Notes,Notes (2)',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^messy-bom-ragged\.csv,7,.*M-4,Bad date row/);
  });

  it('reads a Windows-1252 file (a spreadsheet saved as CSV on Windows)', async () => {
    const importer = await makeImporter({
      name: 'Windows vendor',
      record_type: 'site',
      key_target: 'site.external_id',
      columns: [
        { header: 'Project ID', target: 'site.external_id' },
        { header: 'Project Name', target: 'site.name' },
        { header: 'Project Type', target: 'site.type' },
        { header: 'Street', target: 'site.street' },
        { header: 'City', target: 'site.city' },
        { header: 'Zip', target: 'site.postal_code' },
        { header: 'Bid Date', target: 'site.bid_date' },
        { header: 'Valuation', target: 'site.estimated_value' },
        { header: 'Owner', target: 'site.owner' },
        { header: 'Notes', target: 'site.notes_1' },
      ],
    });
    const result = await runImport(t, admin, importer.id, [
      { name: 'messy-windows-1252.csv', content: fixture('messy-windows-1252.csv') },
    ]);
    expect(result.files[0].encoding).toBe('windows-1252');
    const w1 = (await admin.get('/api/sites?filter[external_id]=W-1001')).body.data[0];
    expect(w1).toMatchObject({
      name: 'Café Olé Remodel',
      city: 'San José',
      owner: 'José Muñoz',
      notes: 'Owner’s rep: Zoë Núñez',
      estimated_value: 1_250_000,
    });
    expect(String(w1.bid_date).slice(0, 10)).toBe('2026-03-02');
    const w2 = (await admin.get('/api/sites?filter[external_id]=W-1002')).body.data[0];
    expect(w2.name).toBe('Façade Restoration – Ñandú Building');
    expect(w2.estimated_value).toBe(2_500_000);
    // (1,000) is a negative amount; the sites' own validation refuses negative values: the row fails with why.
    const failures = (await admin.get(`/api/imports/${result.id}/failures`)).body.data;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ line: 4 });
    expect(failures[0].reason).toMatch(/estimated value/i);
  });

  it('applies all rows or none, as an all-or-nothing importer says', async () => {
    const importer = await makeImporter({
      name: 'Strict vendor',
      record_type: 'site',
      key_target: 'site.external_id',
      all_or_nothing: true,
      columns: [
        { header: 'Project ID', target: 'site.external_id' },
        { header: 'Project Name', target: 'site.name' },
        { header: 'Bid Date', target: 'site.bid_date' },
      ],
    });
    const text = csv([
      ['Project ID', 'Project Name', 'Bid Date'],
      ['S-1', 'Strict one', '2026-01-01'],
      ['S-2', 'Strict two', 'soon'],
      ['S-3', 'Strict three', '2026-01-03'],
    ]);
    const result = await runImport(t, admin, importer.id, [{ name: 'strict.csv', content: text }]);
    expect(result).toMatchObject({ status: 'failed', created_count: 0, failed_count: 1 });
    expect(result.message).toMatch(/nothing was imported/);
    expect((await admin.get('/api/sites?filter[external_id]=S-1')).body.meta.total).toBe(0);
    const good = await runImport(t, admin, importer.id, [
      { name: 'strict.csv', content: text.replace('soon', '2026-01-02') },
    ]);
    expect(good).toMatchObject({ status: 'complete', created_count: 3, failed_count: 0 });
  });
});

describe('the records an importer makes', () => {
  it('get the source the importer sets; a setting left empty keeps the usual default', async () => {
    const importer = await makeImporter({
      name: 'ConstructConnect weekly',
      record_type: 'site',
      key_target: 'site.external_id',
      defaults: { source: 'construct-connect', type: '' },
      columns: [
        { header: 'Project ID', target: 'site.external_id' },
        { header: 'Project Name', target: 'site.name' },
        { header: 'Source', target: 'site.source' },
      ],
    });
    const text = csv([
      ['Project ID', 'Project Name', 'Source'],
      ['CC-1', 'Connect one', ''],
      ['CC-2', 'Connect two', 'meps'],
    ]);
    const result = await runImport(t, admin, importer.id, [{ name: 'connect.csv', content: text }]);
    expect(result).toMatchObject({ status: 'complete', created_count: 2, failed_count: 0 });
    const one = (await admin.get('/api/sites?filter[external_id]=CC-1')).body.data[0];
    expect(one).toMatchObject({ source: 'construct-connect', type: 'pending' });
    // A value in the row wins over the importer's setting.
    expect((await admin.get('/api/sites?filter[external_id]=CC-2')).body.data[0].source).toBe('meps');
  });
});

describe('rules', () => {
  it('sets trades with every operator: eq, neq, gt, gte, lt, lte, in, string-contains, string-start, string-end', async () => {
    const rule = (source: string, operator: string, value: string, trade: string) => ({
      source,
      operator,
      value,
      action: 'trade-set',
      action_value: trade,
    });
    const importer = await makeImporter({
      name: 'Rules vendor',
      record_type: 'site',
      key_target: 'site.external_id',
      columns: [
        { header: 'ID', target: 'site.external_id' },
        { header: 'Name', target: 'site.name' },
        { header: 'Value', target: 'site.estimated_value' },
        { header: 'Category', target: '' },
      ],
      rules: [
        rule('Category', 'eq', 'hospital', 'Pipefitters'),
        rule('Category', 'neq', 'hospital', 'Carpenters'),
        rule('Value', 'gt', '$1,000,000', 'Ironworkers'),
        rule('Value', 'gte', '500000', 'Laborers'),
        rule('Value', 'lt', '100000', 'Painters'),
        rule('Value', 'lte', '100000', 'Drywall'),
        rule('Category', 'in', 'school, library', 'Glaziers'),
        rule('Name', 'string-contains', 'electrical', 'Electrical'),
        rule('Name', 'string-start', 'solar', 'Roofers'),
        rule('Name', 'string-end', 'garage', 'Cement Masons'),
      ],
    });
    const text = csv([
      ['ID', 'Name', 'Value', 'Category'],
      ['R-1', 'City Hospital ELECTRICAL upgrade', '2,000,000', 'Hospital'],
      ['R-2', 'Solar farm', '500000', 'School'],
      ['R-3', 'Parking garage', '100000', 'library'],
      ['R-4', 'Small job', '50000', 'Office'],
    ]);
    const result = await runImport(t, admin, importer.id, [{ name: 'rules.csv', content: text }]);
    expect(result).toMatchObject({ created_count: 4, failed_count: 0 });
    const tradesOf = async (externalId: string) => {
      const site = (await admin.get(`/api/sites?filter[external_id]=${externalId}`)).body.data[0];
      const rows = await db()
        .selectFrom('trades')
        .select('name')
        .where('id', 'in', site.trade_ids.length ? site.trade_ids : [-1])
        .orderBy('name')
        .execute();
      return rows.map((r) => r.name);
    };
    expect(await tradesOf('R-1')).toEqual(['Electrical', 'Ironworkers', 'Laborers', 'Pipefitters']);
    expect(await tradesOf('R-2')).toEqual(['Carpenters', 'Glaziers', 'Laborers', 'Roofers']);
    expect(await tradesOf('R-3')).toEqual(['Carpenters', 'Cement Masons', 'Drywall', 'Glaziers']);
    expect(await tradesOf('R-4')).toEqual(['Carpenters', 'Drywall', 'Painters']);
  });

  it('refuses a rule with an unknown operator or no trade', async () => {
    const res = await admin.post('/api/importers', {
      name: 'Bad rules',
      record_type: 'site',
      rules: [{ source: 'Name', operator: 'matches', value: 'x', action: 'trade-set', action_value: 'Electrical' }],
    });
    expect(res.status).toBe(422);
    const importer = await makeImporter({ name: 'Rule holder', record_type: 'site' });
    const bad = await admin.post('/api/importer-rules', {
      importer_id: importer.id,
      source: 'Name',
      operator: 'gt',
      value: 'abc',
      action_value: 'Electrical',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.value).toBeTruthy();
    const good = await admin.post('/api/importer-rules', {
      importer_id: importer.id,
      source: 'Name',
      operator: 'string-contains',
      value: 'pipe',
      action_value: 'Pipefitters',
    });
    expect(good.status).toBe(201);
    expect((await admin.get(`/api/importers/${importer.id}`)).body.data.rules).toEqual([
      { source: 'Name', operator: 'string-contains', value: 'pipe', action: 'trade-set', action_value: 'Pipefitters' },
    ]);
  });
});

describe('related records the importer may not create', () => {
  it('fails the row naming an unknown trade, saying why, when the importer does not create related records', async () => {
    const importer = await makeImporter({
      name: 'No new trades',
      record_type: 'site',
      key_target: 'site.external_id',
      create_related: false,
      columns: [
        { header: 'ID', target: 'site.external_id' },
        { header: 'Name', target: 'site.name' },
        { header: 'Craft', target: 'site.craft' },
      ],
    });
    const text = csv([
      ['ID', 'Name', 'Craft'],
      ['T-1', 'Known craft', 'electrical'],
      ['T-2', 'Unknown craft', 'Underwater Welders'],
    ]);
    const result = await runImport(t, admin, importer.id, [{ name: 'crafts.csv', content: text }]);
    expect(result).toMatchObject({ created_count: 1, failed_count: 1 });
    const failures = (await admin.get(`/api/imports/${result.id}/failures`)).body.data;
    expect(failures[0]).toMatchObject({ line: 3 });
    expect(failures[0].reason).toMatch(/Trade "Underwater Welders".*does not create/);
    expect(
      await db().selectFrom('trades').select('id').where('name', '=', 'Underwater Welders').execute(),
    ).toHaveLength(0);
    // Matched case-insensitively: "electrical" is the seeded Electrical trade.
    const site = (await admin.get('/api/sites?filter[external_id]=T-1')).body.data[0];
    const electrical = await db()
      .selectFrom('trades')
      .select('id')
      .where('name', '=', 'Electrical')
      .executeTakeFirstOrThrow();
    expect(site.trade_ids).toEqual([electrical.id]);
  });
});

describe('regions of imported sites', () => {
  it('places imported sites in the regions containing them, and moves them when a later import changes their coordinates', async () => {
    const box = [
      [-118.2, 34.1],
      [-118.1, 34.1],
      [-118.1, 34.2],
      [-118.2, 34.2],
      [-118.2, 34.1],
    ];
    const region = await admin.post('/api/regions', {
      name: 'Pasadena box',
      geometry_type: 'postal-code',
      code: '91199',
      color: '#00aa00',
      geometry: { type: 'Polygon', coordinates: [box] },
    });
    expect(region.status, JSON.stringify(region.body)).toBe(201);
    const importer = await makeImporter({
      name: 'Sites with coordinates',
      record_type: 'site',
      key_target: 'site.external_id',
      columns: [
        { header: 'ID', target: 'site.external_id' },
        { header: 'Name', target: 'site.name' },
        { header: 'Lat', target: 'site.latitude' },
        { header: 'Lng', target: 'site.longitude' },
      ],
    });
    const regionsOf = async (externalId: string) =>
      (await admin.get(`/api/sites?filter[external_id]=${externalId}`)).body.data[0].region_ids;
    const first = csv([
      ['ID', 'Name', 'Lat', 'Lng'],
      ['REGION-1', 'Inside', '34.15', '-118.15'],
      ['REGION-2', 'Outside', '33.9', '-118.4'],
    ]);
    expect(await runImport(t, admin, importer.id, [{ name: 'regions-1.csv', content: first }])).toMatchObject({
      created_count: 2,
      failed_count: 0,
    });
    expect(await regionsOf('REGION-1')).toEqual([region.body.data.id]);
    expect(await regionsOf('REGION-2')).toEqual([]);
    const second = csv([
      ['ID', 'Name', 'Lat', 'Lng'],
      ['REGION-1', 'Inside', '33.9', '-118.4'],
      ['REGION-2', 'Outside', '34.12', '-118.11'],
    ]);
    expect(await runImport(t, admin, importer.id, [{ name: 'regions-2.csv', content: second }])).toMatchObject({
      updated_count: 2,
      failed_count: 0,
    });
    expect(await regionsOf('REGION-1')).toEqual([]);
    expect(await regionsOf('REGION-2')).toEqual([region.body.data.id]);
  });
});

describe('the market share of an import chunk', () => {
  it("is counted once, after the chunk's batches and links: a batch writer inside the chunk's counting leaves it to the chunk", async () => {
    const pending = async (trx: any) =>
      (await sql<{ site_id: number }>`select site_id from market_share_pending`.execute(trx)).rows;
    const counted = async (trx: any, id: number) =>
      (await sql`select 1 from market_share_sites where site_id = ${id}`.execute(trx)).rows.length;
    await db()
      .transaction()
      .execute(async (trx) => {
        let id = 0;
        await countMarketShareOnce(trx, async () => {
          await countMarketShareOnce(trx, async () => {
            id = (
              await sql<{
                id: number;
              }>`insert into sites (name, type, estimated_value) values ('Chunk Counted Tower', 'union', 4321) returning id`.execute(
                trx,
              )
            ).rows[0]!.id;
          });
          // The batch inside noted its site and counted nothing; the links after it are noted too.
          expect(await pending(trx)).toEqual([{ site_id: id }]);
          await sql`insert into site_trades (site_id, trade_id) select ${id}, id from trades order by id limit 1`.execute(
            trx,
          );
          expect(await pending(trx)).toEqual([{ site_id: id }, { site_id: id }]);
          expect(await counted(trx, id)).toBe(0);
        });
        expect(await pending(trx)).toEqual([]);
        expect(await counted(trx, id)).toBe(1);
      });
  });
});

describe('a restart in the middle of an import', () => {
  it('resumes after the last committed chunk without duplicating or losing rows', async () => {
    const text = vendorSitesCsv(95, 99);
    const id = await importerId(t, 'vendor-job-sites');
    const processor = t.app.importProcessor as any;
    const saved = { ...processor.options };
    processor.options.chunkSize = 20;
    processor.options.afterChunk = (chunk: number) => {
      if (chunk === 2) throw new SimulatedCrash('killed after chunk 2');
    };
    try {
      const res = await upload(t, admin, '/api/imports', { importer_id: id }, [{ name: 'crash.csv', content: text }]);
      expect(res.status).toBe(201);
      await expect(t.app.jobs.drain()).rejects.toThrow('killed after chunk 2');
      const job = await db()
        .selectFrom('jobs')
        .selectAll()
        .where('type', '=', 'import')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(job.status).toBe('running'); // as a dead process leaves it
      const halfway = (await admin.get(`/api/imports/${res.body.data.id}`)).body.data;
      expect(halfway).toMatchObject({ status: 'processing', processed_rows: 40, created_count: 40 });

      // "Restart": a new worker start requeues what the dead process left running, then runs it.
      processor.options.afterChunk = undefined;
      expect(await requeueAbandoned(db(), { everyRunning: true })).toBe(1);
      await t.app.jobs.drain();
      const done = (await admin.get(`/api/imports/${res.body.data.id}`)).body.data;
      expect(done).toMatchObject({ status: 'complete', processed_rows: 95, created_count: 95, failed_count: 0 });
      const rows = await db().selectFrom('sites').select(['external_id']).where('import_id', '=', done.id).execute();
      expect(rows).toHaveLength(95);
      expect(new Set(rows.map((r) => r.external_id)).size).toBe(95);
      const revisions = await db()
        .selectFrom('revisions')
        .select('id')
        .where('import_id', '=', done.id)
        .where('revisionable_type', '=', 'site')
        .execute();
      expect(revisions).toHaveLength(95);
    } finally {
      processor.options = saved;
      (t.app.jobs as any).stopped = true;
    }
  });
});

describe('uploads are checked before anything is stored', () => {
  const folder = () => path.join(t.config.dataDir, 'files', 'imports');
  // The names, not a count, so a failure says which file was left behind.
  const stored = () => (existsSync(folder()) ? readdirSync(folder()).sort() : []);

  it('refuses a file that is not CSV: a workbook, binary data, another extension', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    const before = stored();
    const imports = (await admin.get('/api/imports')).body.meta.total;
    const xlsx = await upload(t, admin, '/api/imports', { importer_id: id }, [
      { name: 'sites.csv', content: fixture('not-a-csv.xlsx') },
    ]);
    expect(xlsx.status).toBe(422);
    expect(xlsx.body.errors.files[0]).toMatch(/Excel workbook.*Save the sheet as CSV/);
    const binary = await upload(t, admin, '/api/imports', { importer_id: id }, [
      { name: 'data.csv', content: Buffer.from([0x41, 0x2c, 0x00, 0x01, 0x02, 0x0a]) },
    ]);
    expect(binary.status).toBe(422);
    expect(binary.body.errors.files[0]).toMatch(/binary/);
    const exe = await upload(t, admin, '/api/imports', { importer_id: id }, [{ name: 'setup.exe', content: 'MZ' }]);
    expect(exe.status).toBe(422);
    expect(exe.body.errors.files[0]).toMatch(/only \.csv, \.txt, \.tsv and \.xlsx/);
    expect(stored()).toEqual(before);
    expect((await admin.get('/api/imports')).body.meta.total).toBe(imports);
  });

  it('refuses a file over the size limit with 422 naming the limit', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    const before = stored();
    const limit = t.config.limits.uploadBytes;
    t.config.limits.uploadBytes = 4_096;
    try {
      const res = await upload(t, admin, '/api/imports', { importer_id: id }, [
        { name: 'big.csv', content: fixture('vendor-sites.csv') },
      ]);
      expect(res.status).toBe(422);
      expect(res.body.errors.files[0]).toBe(
        '"big.csv" is larger than 4 KB; the most a file may be is 4 KB. Split it into smaller files.',
      );
    } finally {
      t.config.limits.uploadBytes = limit;
    }
    expect(stored()).toEqual(before);
  });

  it('refuses an upload without an importer, and a person who may not import', async () => {
    const none = await upload(t, admin, '/api/imports', {}, [{ name: 'a.csv', content: 'Name\nx\n' }]);
    expect(none.status).toBe(422);
    expect(none.body.errors.importer_id).toBeTruthy();
    // The seeded assistant role may not import (organizers, role "user", may: they bring in the weekly file).
    await t.createUser({ role: 'assistant', email: 'assistant-import@example.com' });
    const assistant = await t.signIn('assistant-import@example.com');
    const res = await upload(t, assistant, '/api/imports', { importer_id: await importerId(t, 'vendor-job-sites') }, [
      { name: 'a.csv', content: 'Name\nx\n' },
    ]);
    expect(res.status).toBe(403);
    await t.createUser({ role: 'user', email: 'organizer-import@example.com' });
    const organizer = await t.signIn('organizer-import@example.com');
    expect((await organizer.get('/api/imports')).status).toBe(200);
  });
});

describe('preview', () => {
  it('shows the first rows as they will be mapped, with the errors they would produce, and writes nothing', async () => {
    const sites = (await admin.get('/api/sites')).body.meta.total;
    const res = await upload(
      t,
      admin,
      '/api/imports/preview',
      { importer_id: await importerId(t, 'vendor-job-sites') },
      [{ name: 'messy.csv', content: fixture('vendor-sites.csv') }],
    );
    expect(res.status).toBe(200);
    expect(res.body.data.headers[0]).toBe('Dodge Report Number');
    expect(res.body.data.rows).toHaveLength(20);
    expect(res.body.data.rows[0]).toMatchObject({
      line: 2,
      values: { external_id: '202600100000', name: 'Riverfront Water Treatment Plant Upgrade', bid_date: '2026-10-15' },
      errors: [],
    });
    expect(res.body.data.rows[0].related.trades).toEqual(['Sheet Metal', 'Plumbing', 'Operating Engineers']);
    expect(res.body.data.suggestions[0]).toBe('site.external_id');
    expect((await admin.get('/api/sites')).body.meta.total).toBe(sites);
    const bad = await upload(
      t,
      admin,
      '/api/imports/preview',
      {
        importer: JSON.stringify({
          name: 'x',
          record_type: 'site',
          columns: [
            { header: 'Project Name', target: 'site.name' },
            { header: 'Bid Date', target: 'site.bid_date' },
          ],
        }),
      },
      [{ name: 'messy.csv', content: fixture('messy-bom-ragged.csv') }],
    );
    const byLine = Object.fromEntries(bad.body.data.rows.map((r: any) => [r.line, r.errors]));
    expect(byLine[7][0]).toMatch(/not a date/);
    expect(byLine[10][0]).toMatch(/name field is required/i);
  });
});

describe('importers', () => {
  it('suggests targets from header names and adds columns from a sample file', async () => {
    const importer = await makeImporter({ name: 'From a sample', record_type: 'site', key_target: 'site.external_id' });
    const res = await upload(
      t,
      admin,
      '/api/importer-columns/import',
      { importer_id: importer.id },
      [{ name: 'sample.csv', content: 'Project ID,Project Name,Zip,Lat,Longitude,Bid Due,Valuation,Mystery\n' }],
      'file',
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual([
      { header: 'Project ID', target: 'site.external_id' },
      { header: 'Project Name', target: 'site.name' },
      { header: 'Zip', target: 'site.postal_code' },
      { header: 'Lat', target: 'site.latitude' },
      { header: 'Longitude', target: 'site.longitude' },
      { header: 'Bid Due', target: 'site.bid_date' },
      { header: 'Valuation', target: 'site.estimated_value' },
      { header: 'Mystery', target: '' },
    ]);
  });

  it('refuses a column with a target the record type does not have', async () => {
    const res = await admin.post('/api/importers', {
      name: 'Bad target',
      record_type: 'member',
      columns: [{ header: 'Project', target: 'site.name' }],
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('is not a target of member imports');
  });

  it('exports an importer as a file and imports it back', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    const exported = await admin.get(`/api/importers/${id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain('.importer.json');
    const file = typeof exported.body === 'string' ? JSON.parse(exported.body) : exported.body;
    expect(file).toMatchObject({
      format: 'organizing-map-importer',
      record_type: 'site',
      key_target: 'site.external_id',
    });
    file.name = 'Vendor copy';
    const res = await upload(
      t,
      admin,
      '/api/importers/import',
      {},
      [{ name: 'vendor.importer.json', content: JSON.stringify(file), type: 'application/json' }],
      'file',
    );
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Vendor copy');
    expect(res.body.data.columns).toEqual(file.columns);
    expect(res.body.data.rules).toEqual(file.rules);
    const json = await admin.post('/api/importers/import', { ...file, name: 'Vendor copy 2' });
    expect(json.status).toBe(201);
  });

  it('reorders importers', async () => {
    const id = await importerId(t, 'member-roster');
    const res = await admin.post(`/api/importers/${id}/reorder`, { position: 0 });
    expect(res.status).toBe(200);
    const list = (await admin.get('/api/importers?sort=position&order=asc&per_page=-1')).body.data;
    expect(list[0].id).toBe(id);
    expect(list.map((i: any) => i.position)).toEqual(list.map((_: unknown, i: number) => i));
  });

  it('lists the mapping targets of each record type with the keys and rule operators', async () => {
    const res = await admin.get('/api/importers/targets');
    expect(res.status).toBe(200);
    const keys = res.body.data.site.targets.map((x: any) => x.key);
    for (const key of [
      'site.name',
      'site.external_id',
      'site.bid_date',
      'contractor.name',
      'contact_3.phone',
      'classification',
      'craft',
      'union',
      'is_site_contact',
    ])
      expect(keys).toContain(key);
    expect(res.body.data.member.targets.map((x: any) => x.key)).toContain('is_steward');
    expect(res.body.operators.map((o: any) => o.id)).toEqual([
      'eq',
      'neq',
      'gt',
      'gte',
      'lt',
      'lte',
      'in',
      'string-contains',
      'string-start',
      'string-end',
    ]);
  });
});
