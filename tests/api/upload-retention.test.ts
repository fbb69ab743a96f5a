import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { UPLOAD_RETENTION_JOB } from '../../src/server/imports/upload-retention.js';
import { enqueueJob } from '../../src/server/jobs/queue.js';
import { fixture, importerId, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * UPLOAD_RETENTION_DAYS: the periodic job removes an import's uploaded files once they are older than that, and
 * keeps the import (its counts, its page, its report); files no import names go too once old.
 */
let t: TestApp;
let admin: TestClient;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestApp({ UPLOAD_RETENTION_DAYS: '30' });
  await seedReadyMadeImporters(t.database.db);
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the retention job as the worker would, with the clock moved on by `days`. */
async function runRetentionJob(days: number) {
  const due = new Date();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(due.getTime() + days * DAY));
  try {
    await enqueueJob(t.ctx.db, UPLOAD_RETENTION_JOB, {}, { runAt: due });
    await t.app.jobs.drain();
  } finally {
    vi.useRealTimers();
  }
}

describe('uploaded files are kept UPLOAD_RETENTION_DAYS', () => {
  it('removes an import’s files after that many days and keeps the import', async () => {
    const folder = path.join(t.config.dataDir, 'files', 'imports');
    const res = await upload(t, admin, '/api/imports', { importer_id: await importerId(t, 'vendor-job-sites') }, [
      { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
    ]);
    expect(res.status).toBe(201);
    await t.app.jobs.drain();
    const id = res.body.data.id;
    const before = (await admin.get(`/api/imports/${id}`)).body.data;
    expect(before).toMatchObject({ status: 'complete', created_count: 50 });
    expect(before.files[0]).toMatchObject({ name: 'vendor-sites.csv', kept: true });
    const stored = readdirSync(folder).filter((name) => name.endsWith('.csv'));
    expect(stored.length).toBeGreaterThan(0);

    // A file no import names (an upload cut short), old enough to go, and one too new to.
    const stray = path.join(folder, 'stray.csv');
    const recent = path.join(folder, 'recent.csv');
    writeFileSync(stray, 'a,b\n');
    writeFileSync(recent, 'a,b\n');
    const longAgo = new Date(Date.now() - 40 * DAY);
    utimesSync(stray, longAgo, longAgo);

    await runRetentionJob(29);
    expect(readdirSync(folder).filter((name) => stored.includes(name))).toEqual(stored);
    expect((await admin.get(`/api/imports/${id}`)).body.data.files[0].kept).toBe(true);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(recent)).toBe(true);

    await runRetentionJob(31);
    expect(readdirSync(folder).filter((name) => stored.includes(name))).toEqual([]);
    const after = (await admin.get(`/api/imports/${id}`)).body.data;
    expect(after).toMatchObject({ status: 'complete', created_count: 50, name: 'vendor-sites.csv' });
    expect(after.files[0]).toMatchObject({ name: 'vendor-sites.csv', kept: false });
    expect(JSON.stringify(after)).not.toContain(t.config.dataDir);
    expect((await admin.get(`/api/imports/${id}/download`)).status).toBe(200);
    expect((await admin.get(`/api/imports/${id}/records?per_page=5`)).body.meta.total).toBe(50);

    // Each run queues the next one.
    const next = await t.ctx.db
      .selectFrom('jobs')
      .select('run_at')
      .where('type', '=', UPLOAD_RETENTION_JOB)
      .where('status', '=', 'queued')
      .execute();
    expect(next.length).toBeGreaterThan(0);
  });
});
