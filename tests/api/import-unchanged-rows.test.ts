import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { requeueAbandoned } from '../../src/server/jobs/queue.js';
import { SimulatedCrash } from '../../src/server/jobs/worker.js';
import { vendorSitesCsv } from '../fixtures/generate.js';
import { importerId, runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
const db = () => dynamicTables(t.ctx.db);

beforeAll(async () => {
  t = await startTestApp();
  await seedReadyMadeImporters(t.database.db);
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

const ROWS = 40;
const file = (rows: number, seed: number, name = 'sites.csv') => ({
  name,
  content: Buffer.from(vendorSitesCsv(rows, seed)),
});

/**
 * Every live site of the files (external ids 2026...) as stored, with its trades; with its contact and contractor
 * links too when asked (an undo leaves the links an import added: it puts back records and their fields).
 */
async function sitesAsStored(options: { withUpdatedAt: boolean; withLinks?: boolean }) {
  const sites = await db()
    .selectFrom('sites')
    .selectAll()
    .where('external_id', 'like', '2026%')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const ids = sites.map((s) => s.id);
  const links = async (table: string, column: string) =>
    ids.length
      ? await db()
          .selectFrom(table)
          .selectAll()
          .where('site_id', 'in', ids)
          .orderBy('site_id')
          .orderBy(column)
          .execute()
      : [];
  return {
    sites: sites.map(({ updated_at, ...rest }) => (options.withUpdatedAt ? { ...rest, updated_at } : rest)),
    trades: await links('site_trades', 'trade_id'),
    ...(options.withLinks
      ? {
          contacts: await links('site_contacts', 'contact_id'),
          contractors: await links('site_contractors', 'contractor_id'),
        }
      : {}),
  };
}

const countOf = async (table: string, where: (q: any) => any = (q) => q) =>
  Number(
    (
      await where(
        db()
          .selectFrom(table)
          .select((eb: any) => eb.fn.countAll().as('n')),
      ).executeTakeFirstOrThrow()
    ).n,
  );

describe('importing a file again', () => {
  let importer: number;

  it('skips the rows imported before into records nobody changed: no revision, no undo entry, nothing written', async () => {
    importer = await importerId(t, 'vendor-job-sites');
    const first = await runImport(t, admin, importer, [file(ROWS, 5)]);
    expect(first).toMatchObject({ status: 'complete', created_count: ROWS, failed_count: 0 });
    expect(await countOf('import_row_hashes', (q) => q.where('record_type', '=', 'site'))).toBe(ROWS);

    const before = await sitesAsStored({ withUpdatedAt: true, withLinks: true });
    const siteRevisions = await countOf('revisions', (q) => q.where('revisionable_type', '=', 'site'));
    const contractors = await countOf('contractors');
    const contacts = await countOf('contacts');
    const again = await runImport(t, admin, importer, [file(ROWS, 5, 'sites-again.csv')]);
    expect(again).toMatchObject({
      status: 'complete',
      created_count: 0,
      updated_count: 0,
      skipped_count: ROWS,
      failed_count: 0,
    });
    expect(await countOf('revisions', (q) => q.where('revisionable_type', '=', 'site'))).toBe(siteRevisions);
    expect(await countOf('revisions', (q) => q.where('import_id', '=', again.id))).toBe(0);
    expect(await countOf('import_records', (q) => q.where('import_id', '=', again.id))).toBe(0);
    expect(await countOf('contractors')).toBe(contractors);
    expect(await countOf('contacts')).toBe(contacts);
    expect(await sitesAsStored({ withUpdatedAt: true, withLinks: true })).toEqual(before);
  });

  it('writes a row again when a person changed its record since', async () => {
    const site = (await admin.get('/api/sites?filter[external_id]=202600100003')).body.data[0];
    const fileValue = site.estimated_value;
    const edited = await admin.post(`/api/sites/${site.id}`, { estimated_value: 1234 });
    expect(edited.status).toBe(200);
    const again = await runImport(t, admin, importer, [file(ROWS, 5, 'sites-third.csv')]);
    expect(again).toMatchObject({ created_count: 0, updated_count: 1, skipped_count: ROWS - 1, failed_count: 0 });
    expect((await admin.get(`/api/sites/${site.id}`)).body.data.estimated_value).toBe(fileValue);
    const revision = await db()
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_id', '=', site.id)
      .where('import_id', '=', again.id)
      .executeTakeFirstOrThrow();
    expect(revision.changes).toEqual({ estimated_value: [1234, fileValue] });
  });

  it('writes every row again when the importer changed', async () => {
    const shown = (await admin.get(`/api/importers/${importer}`)).body.data;
    const changed = await admin.post(`/api/importers/${importer}`, {
      defaults: { ...shown.defaults, type: 'new-project' },
    });
    expect(changed.status).toBe(200);
    const again = await runImport(t, admin, importer, [file(ROWS, 5, 'sites-fourth.csv')]);
    // The default applies to new records only, so every row is read again and found unchanged.
    expect(again).toMatchObject({ created_count: 0, updated_count: 0, skipped_count: ROWS, failed_count: 0 });
    const hashes = await db()
      .selectFrom('import_row_hashes')
      .select('content_hash')
      .where('record_type', '=', 'site')
      .where('key', '=', 'external_id:202600100000')
      .executeTakeFirstOrThrow();
    const revert = await admin.post(`/api/importers/${importer}`, { defaults: shown.defaults });
    expect(revert.status).toBe(200);
    await runImport(t, admin, importer, [file(ROWS, 5, 'sites-fifth.csv')]);
    const after = await db()
      .selectFrom('import_row_hashes')
      .select('content_hash')
      .where('record_type', '=', 'site')
      .where('key', '=', 'external_id:202600100000')
      .executeTakeFirstOrThrow();
    expect(after.content_hash).not.toBe(hashes.content_hash);
  });

  it('undoes an import that changed and created sites exactly, and a file imported again after the undo is written again', async () => {
    const before = await sitesAsStored({ withUpdatedAt: false });
    const changedFile = file(ROWS + 5, 9, 'sites-changed.csv');
    const changed = await runImport(t, admin, importer, [changedFile]);
    expect(changed).toMatchObject({ status: 'complete', created_count: 5, failed_count: 0 });
    expect(changed.updated_count).toBeGreaterThan(30);
    expect(await sitesAsStored({ withUpdatedAt: false })).not.toEqual(before);

    const undo = await admin.post(`/api/imports/${changed.id}/undo`);
    expect(undo.status).toBe(202);
    await t.app.jobs.drain();
    expect((await admin.get(`/api/imports/${changed.id}`)).body.data.undo_status).toBe('complete');
    expect(await sitesAsStored({ withUpdatedAt: false })).toEqual(before);

    // The undo put the records back, so the changed file's rows are no longer what they hold.
    const again = await runImport(t, admin, importer, [file(ROWS + 5, 9, 'sites-changed-again.csv')]);
    expect(again).toMatchObject({
      created_count: 5,
      updated_count: changed.updated_count,
      skipped_count: changed.skipped_count,
      failed_count: 0,
    });
  });

  it('a key twice in a file, first changed and then as imported before: both rows are written, the last one wins', async () => {
    const [headers, ...rows] = Papa.parse<string[]>(vendorSitesCsv(ROWS + 5, 9), { skipEmptyLines: true }).data;
    const value = headers!.indexOf('Estimated Value');
    const key = headers!.indexOf('Dodge Report Number');
    const site = (await admin.get(`/api/sites?filter[external_id]=${rows[2]![key]}`)).body.data[0];
    const changedRow = [...rows[2]!];
    changedRow[value] = '777777';
    const content = Buffer.from(Papa.unparse([headers!, changedRow, ...rows]));
    const again = await runImport(t, admin, importer, [{ name: 'sites-key-twice.csv', content }]);
    expect(again).toMatchObject({
      status: 'complete',
      created_count: 0,
      updated_count: 2,
      skipped_count: ROWS + 4,
      failed_count: 0,
    });
    expect((await admin.get(`/api/sites/${site.id}`)).body.data.estimated_value).toBe(site.estimated_value);
  });
  it('writes a row whose record a person changed during the import, after the kept hashes were read', async () => {
    const imported = await runImport(t, admin, importer, [file(ROWS, 21, 'sites-during.csv')]);
    expect(imported).toMatchObject({ status: 'complete', failed_count: 0 });
    const site = (await admin.get('/api/sites?filter[external_id]=202600100030')).body.data[0];
    const processor = t.app.importProcessor as any;
    const saved = { ...processor.options };
    processor.options.chunkSize = 20;
    // Between the first chunk (the kept hashes read) and the second (which holds row 30).
    processor.options.afterChunk = async (chunk: number) => {
      if (chunk === 1) expect((await admin.post(`/api/sites/${site.id}`, { estimated_value: 4321 })).status).toBe(200);
    };
    try {
      const again = await runImport(t, admin, importer, [file(ROWS, 21, 'sites-during-again.csv')]);
      expect(again).toMatchObject({
        status: 'complete',
        created_count: 0,
        updated_count: 1,
        skipped_count: ROWS - 1,
        failed_count: 0,
      });
      expect((await admin.get(`/api/sites/${site.id}`)).body.data.estimated_value).toBe(site.estimated_value);
    } finally {
      processor.options = saved;
    }
  });
  it('saves the count of chunks the file brings again unchanged with the next chunk it writes; a restart reads them again', async () => {
    const processor = t.app.importProcessor as any;
    const saved = { ...processor.options };
    processor.options.chunkSize = 20;
    let halfway: any;
    // Chunks 1 and 2 are the 40 sites imported before, unchanged; chunk 3 is 20 more.
    processor.options.afterChunk = async (chunk: number, id: number) => {
      if (chunk !== 2) return;
      halfway = await db().selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      throw new SimulatedCrash('killed after chunk 2');
    };
    try {
      const res = await upload(t, admin, '/api/imports', { importer_id: importer }, [
        file(ROWS + 20, 21, 'sites-grown.csv'),
      ]);
      expect(res.status).toBe(201);
      await expect(t.app.jobs.drain()).rejects.toThrow('killed after chunk 2');
      // No transaction for them: nothing saved yet.
      expect(halfway).toMatchObject({ processed_rows: 0, skipped_count: 0, checkpoint: { file: 0, row: 0 } });
      processor.options.afterChunk = undefined;
      expect(await requeueAbandoned(t.ctx.db, { everyRunning: true })).toBe(1);
      await t.app.jobs.drain();
      const done = (await admin.get(`/api/imports/${res.body.data.id}`)).body.data;
      // (Five of the new rows' sites exist from the tests above.)
      expect(done).toMatchObject({
        status: 'complete',
        processed_rows: ROWS + 20,
        created_count: 15,
        updated_count: 5,
        skipped_count: ROWS,
        failed_count: 0,
      });
    } finally {
      processor.options = saved;
    }
  });
});
