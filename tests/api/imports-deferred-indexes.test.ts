import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { requeueAbandoned } from '../../src/server/jobs/queue.js';
import { SimulatedCrash } from '../../src/server/jobs/worker.js';
import {
  deferrableIndexes,
  ensureSearchIndexes,
  ensureSortIndexes,
  missingIndexes,
} from '../../src/server/schemas/indexes.js';
import { line, random, VENDOR_HEADER, vendorRow } from '../fixtures/generate.js';
import { importerId, runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

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

/** Vendor rows `from` to `from + count - 1` (their report numbers, so files of other ranges create other sites). */
function vendorFile(from: number, count: number) {
  const r = random(from + 1);
  let text = line(VENDOR_HEADER);
  for (let i = from; i < from + count; i++) text += line(vendorRow(i, r));
  return text;
}

/** The sort and search indexes of `sites` missing now (or invalid). */
async function missingSiteIndexes() {
  const names = deferrableIndexes(t.ctx.resources.all(), 'sites').map((index) => index.name);
  return (await missingIndexes(db(), names)).size;
}

/** A sorted, searched page of the sites list, as a person reads it. */
async function sortedPage() {
  const res = await admin.get('/api/sites?sort=name&order=desc&per_page=25&search=a');
  expect(res.status).toBe(200);
  return res.body.data.map((site: { id: number; name: string }) => [site.id, site.name]);
}

const siteIndexCount = () => deferrableIndexes(t.ctx.resources.all(), 'sites').length;

/** Runs `work` with the import processor's options set (20-row chunks; imports of 50 rows or more leave the indexes out). */
async function withOptions(options: Record<string, unknown>, work: () => Promise<void>) {
  const processor = t.app.importProcessor as any;
  const saved = { ...processor.options };
  processor.options = { ...saved, chunkSize: 20, deferIndexesFrom: 50, ...options };
  try {
    await work();
  } finally {
    processor.options = saved;
  }
}

describe('a large import leaves the sort and search indexes of its table out while it writes', () => {
  it('has them gone during the import and back after it; revisions, undo entries, links and failed rows as ever', async () => {
    expect(siteIndexCount()).toBeGreaterThan(10);
    expect(await missingSiteIndexes()).toBe(0);
    const during: number[] = [];
    const readDuring: unknown[] = [];
    const afterChunk = async (chunk: number) => {
      during.push(await missingSiteIndexes());
      if (chunk === 4) readDuring.push(await sortedPage());
    };
    await withOptions({ afterChunk }, async () => {
      const text = vendorFile(10_000, 80) + line(['', '', '', '', '', '', '', '', 'not a latitude']);
      const done = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
        { name: 'large.csv', content: text },
      ]);
      expect(done).toMatchObject({ status: 'complete', created_count: 80, failed_count: 1 });
      expect(during.length).toBeGreaterThanOrEqual(4);
      expect(during.every((n) => n === siteIndexCount())).toBe(true);
      expect(await missingSiteIndexes()).toBe(0);
      expect(await db().selectFrom('import_index_deferrals').selectAll().execute()).toEqual([]);

      const sites = await db().selectFrom('sites').select('id').where('import_id', '=', done.id).execute();
      expect(sites).toHaveLength(80);
      const revisions = await db()
        .selectFrom('revisions')
        .select('id')
        .where('import_id', '=', done.id)
        .where('revisionable_type', '=', 'site')
        .execute();
      expect(revisions).toHaveLength(80);
      const undo = await sql<{
        n: number;
      }>`select count(*)::int as n from import_records where import_id = ${done.id} and record_type = 'site' and created`.execute(
        db(),
      );
      expect(Number(undo.rows[0]?.n)).toBe(80);
      const trades = await sql<{
        n: number;
      }>`select count(distinct site_id)::int as n from site_trades where site_id in (select id from sites where import_id = ${done.id})`.execute(
        db(),
      );
      expect(Number(trades.rows[0]?.n)).toBe(80);
      const report = await admin.get(`/api/imports/${done.id}/failures`);
      expect(report.status).toBe(200);

      // What a list read meanwhile (without the indexes) is what it reads now (with them).
      expect(readDuring.length).toBeGreaterThan(0);
      expect(await sortedPage()).toEqual(readDuring[readDuring.length - 1]);

      // Undo deletes the 80 sites; the indexes stay.
      expect((await admin.post(`/api/imports/${done.id}/undo`)).status).toBeLessThan(300);
      await t.app.jobs.drain();
      const left = await db()
        .selectFrom('sites')
        .select('id')
        .where('import_id', '=', done.id)
        .where('deleted_at', 'is', null)
        .execute();
      expect(left).toHaveLength(0);
      expect(await missingSiteIndexes()).toBe(0);
    });
  });

  it('a small import never leaves them out', async () => {
    const during: number[] = [];
    await withOptions({ afterChunk: async () => void during.push(await missingSiteIndexes()) }, async () => {
      const done = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
        { name: 'small.csv', content: vendorFile(20_000, 30) },
      ]);
      expect(done).toMatchObject({ status: 'complete', created_count: 30 });
    });
    expect(during).toEqual([0, 0]);
    expect(await db().selectFrom('import_index_deferrals').selectAll().execute()).toEqual([]);
  });

  it('a file brought again unchanged leaves them in place', async () => {
    const text = vendorFile(30_000, 60);
    await withOptions({ deferIndexesFrom: 1_000_000 }, async () => {
      expect(
        await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [{ name: 'again.csv', content: text }]),
      ).toMatchObject({ created_count: 60 });
    });
    const during: number[] = [];
    await withOptions({ afterChunk: async () => void during.push(await missingSiteIndexes()) }, async () => {
      expect(
        await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [{ name: 'again.csv', content: text }]),
      ).toMatchObject({ skipped_count: 60 });
    });
    expect(during.every((n) => n === 0)).toBe(true);
  });
});

describe('a stop in the middle of a large import', () => {
  it('leaves no index missing: the start makes them again, and the resumed import ends with them', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    let started = 0;
    await withOptions(
      {
        afterChunk: (chunk: number) => {
          if (chunk === 1) throw new SimulatedCrash('killed after chunk 1');
        },
      },
      async () => {
        const res = await upload(t, admin, '/api/imports', { importer_id: id }, [
          { name: 'crash.csv', content: vendorFile(40_000, 100) },
        ]);
        expect(res.status).toBe(201);
        started = res.body.data.id;
        await expect(t.app.jobs.drain()).rejects.toThrow('killed after chunk 1');
        (t.app.jobs as any).stopped = true;
      },
    );
    expect(await missingSiteIndexes()).toBe(siteIndexCount());

    // What the server's start does (schemas/schema-routes.ts, at ready).
    await ensureSearchIndexes(db(), t.ctx.resources.all());
    await ensureSortIndexes(db(), t.ctx.resources.all());
    expect(await missingSiteIndexes()).toBe(0);

    // The job resumes, may leave them out again, and ends with them.
    await withOptions({}, async () => {
      expect(await requeueAbandoned(db(), { everyRunning: true })).toBe(1);
      await t.app.jobs.drain();
    });
    const done = (await admin.get(`/api/imports/${started}`)).body.data;
    expect(done).toMatchObject({ status: 'complete', created_count: 100, failed_count: 0 });
    expect(await missingSiteIndexes()).toBe(0);
    expect(await db().selectFrom('import_index_deferrals').selectAll().execute()).toEqual([]);
  });
});

describe('two large imports at once', () => {
  // Files large beside the table the tests before filled.
  it('the first to end leaves the indexes out for the other, the last makes them again', async () => {
    const id = await importerId(t, 'vendor-job-sites');
    let first = 0;
    // The first stops after its first chunk, as if its process still ran it elsewhere.
    await withOptions(
      {
        afterChunk: (chunk: number) => {
          if (chunk === 1) throw new SimulatedCrash('paused after chunk 1');
        },
      },
      async () => {
        const res = await upload(t, admin, '/api/imports', { importer_id: id }, [
          { name: 'first.csv', content: vendorFile(50_000, 400) },
        ]);
        first = res.body.data.id;
        await expect(t.app.jobs.drain()).rejects.toThrow('paused after chunk 1');
        (t.app.jobs as any).stopped = true;
      },
    );
    expect(await missingSiteIndexes()).toBe(siteIndexCount());

    await withOptions({}, async () => {
      const second = await runImport(t, admin, id, [{ name: 'second.csv', content: vendorFile(60_000, 400) }]);
      expect(second).toMatchObject({ status: 'complete', created_count: 400 });
    });
    // The first still writes without them: the second left them out.
    expect(await missingSiteIndexes()).toBe(siteIndexCount());

    await withOptions({}, async () => {
      expect(await requeueAbandoned(db(), { everyRunning: true })).toBe(1);
      await t.app.jobs.drain();
    });
    expect((await admin.get(`/api/imports/${first}`)).body.data).toMatchObject({
      status: 'complete',
      created_count: 400,
    });
    expect(await missingSiteIndexes()).toBe(0);
    expect(await db().selectFrom('import_index_deferrals').selectAll().execute()).toEqual([]);
  });

  it('an import that fails midway makes them again as it stops', async () => {
    let missingThen = -1;
    await withOptions(
      {
        afterChunk: async (chunk: number) => {
          if (chunk < 2) return;
          missingThen = await missingSiteIndexes();
          throw new Error('the disk is full');
        },
      },
      async () => {
        const res = await upload(t, admin, '/api/imports', { importer_id: await importerId(t, 'vendor-job-sites') }, [
          { name: 'fails.csv', content: vendorFile(70_000, 900) },
        ]);
        expect(res.status).toBe(201);
        await t.app.jobs.drain();
        expect((await admin.get(`/api/imports/${res.body.data.id}`)).body.data).toMatchObject({ status: 'failed' });
      },
    );
    expect(missingThen).toBe(siteIndexCount());
    expect(await missingSiteIndexes()).toBe(0);
    expect(await db().selectFrom('import_index_deferrals').selectAll().execute()).toEqual([]);
  });
});
