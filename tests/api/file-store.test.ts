import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFolderToBucket } from '../../src/server/files/copy-to-s3.js';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { removeExpiredUploads } from '../../src/server/imports/upload-retention.js';
import { fixture, importerId, upload as uploadCsv } from '../fixtures/upload.js';
import { startS3 } from '../support/s3-server.js';
import { startTestApp, type TestApp, type TestClient, testDatabaseUrl } from '../support/test-app.js';

/**
 * Files on S3-compatible storage (S3_* settings): documents and exports go to the bucket, not DATA_DIR/files, and
 * download through the server's permission check; on PostgreSQL a second process downloads what the first stored;
 * `npm run files:to-s3` copies a data folder's files to the bucket.
 */
let s3: Awaited<ReturnType<typeof startS3>>;
let a: TestApp;
let admin: TestClient;
beforeAll(async () => {
  s3 = await startS3();
  a = await startTestApp(s3.env);
  admin = await a.admin();
}, 60_000);
afterAll(async () => {
  await a?.close();
  await s3?.stop();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const cookieOf = (client: TestClient) => [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ');

async function upload(
  app: TestApp,
  client: TestClient,
  fields: Record<string, string>,
  file: { name: string; type: string; content: Buffer },
) {
  if (!client.jar.has('XSRF-TOKEN')) await client.csrf();
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([file.content as any], { type: file.type }), file.name);
  const response = await fetch(`${app.baseUrl}/api/documents`, {
    method: 'POST',
    body: form,
    headers: {
      accept: 'application/json',
      cookie: cookieOf(client),
      'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
    },
  });
  return { status: response.status, body: await response.json() };
}

async function keys(prefix: string) {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((item) => item.Key!);
}

describe('files in an S3-compatible bucket', () => {
  it('keeps an uploaded document in the bucket and streams it back to those who may read its record only', async () => {
    const site = (await admin.post('/api/sites', { name: 'Bucket Tower', type: 'union' })).body.data;
    const doc = await upload(
      a,
      admin,
      { documentable_type: 'site', documentable_id: String(site.id) },
      { name: 'permit.pdf', type: 'application/pdf', content: PDF },
    );
    expect(doc.status).toBe(201);
    const stored = await keys('documents/');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^documents\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/);
    const folder = path.join(a.config.dataDir, 'files', 'documents');
    expect(
      existsSync(folder) ? readdirSync(folder, { recursive: true }).filter((f) => String(f).endsWith('.pdf')) : [],
    ).toEqual([]);

    const download = await fetch(`${a.baseUrl}/api/documents/${doc.body.data.id}/download`, {
      headers: { cookie: cookieOf(admin) },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(PDF.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    expect((await fetch(`${a.baseUrl}/api/documents/${doc.body.data.id}/download`)).status).toBe(401);
  });

  it('writes a finished export to the bucket and downloads it from there', async () => {
    await admin.post('/api/sites', { name: 'Export Bucket Hall', type: 'pla' });
    const started = await admin.post('/api/exports', {
      resource: 'sites',
      params: { filter: { type: 'pla' } },
      columns: ['name'],
    });
    expect(started.status).toBe(201);
    await a.app.jobs.drain();
    expect(await keys('exports/')).toEqual([`exports/export-${started.body.data.id}.csv`]);
    const file = await admin.get(`/api/exports/${started.body.data.id}/download`);
    expect(file.status).toBe(200);
    expect(String(file.body)).toContain('Export Bucket Hall');
  });

  it('keeps an import’s uploaded file in the bucket, imports from it, and removes it after the retention days', async () => {
    await seedReadyMadeImporters(a.database.db);
    const started = await uploadCsv(
      a,
      admin,
      '/api/imports',
      { importer_id: await importerId(a, 'vendor-job-sites') },
      [{ name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') }],
    );
    expect(started.status).toBe(201);
    const kept = await keys('imports/');
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^imports\/[0-9a-f-]{36}\.csv$/);
    const folder = path.join(a.config.dataDir, 'files', 'imports');
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);

    await a.app.jobs.drain();
    const done = (await admin.get(`/api/imports/${started.body.data.id}`)).body.data;
    expect(done).toMatchObject({ status: 'complete', created_count: 50 });
    expect((await admin.get(`/api/imports/${started.body.data.id}/download`)).status).toBe(200);

    expect(
      await removeExpiredUploads(a.ctx.db, a.ctx.files, 30, new Date(Date.now() + 31 * 86_400_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(await keys('imports/')).toEqual([]);
    expect((await admin.get(`/api/imports/${started.body.data.id}`)).body.data.files[0].kept).toBe(false);
  });

  it('copies the files of a data folder to the bucket (npm run files:to-s3), once', async () => {
    const folder = path.join(a.config.dataDir, 'files', 'documents', '2025', '01');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'old-letter.txt'), 'kept before the bucket');
    mkdirSync(path.join(a.config.dataDir, 'files', 'tmp'), { recursive: true });
    writeFileSync(path.join(a.config.dataDir, 'files', 'tmp', 'half.part'), 'unfinished');
    const lines: string[] = [];
    const first = await copyFolderToBucket(a.config.dataDir, a.config.s3!, (line) => lines.push(line));
    expect(first.copied).toBeGreaterThanOrEqual(1);
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: 'documents/2025/01/old-letter.txt' }),
    );
    expect(await object.Body!.transformToString()).toBe('kept before the bucket');
    expect(await keys('tmp/')).toEqual([]);
    expect((await copyFolderToBucket(a.config.dataDir, a.config.s3!, () => {})).copied).toBe(0);
  });

  it.skipIf(!testDatabaseUrl())('a document uploaded through one process downloads through another', async () => {
    const other = await startTestApp({
      ...s3.env,
      DATABASE_URL: a.config.databaseUrl,
      DATA_DIR: path.join(a.config.dataDir, 'second-process'),
      APP_KEY: a.config.appKey,
    });
    try {
      const site = (await admin.post('/api/sites', { name: 'Two Process Tower', type: 'union' })).body.data;
      const doc = await upload(
        a,
        admin,
        { documentable_type: 'site', documentable_id: String(site.id) },
        { name: 'plan.pdf', type: 'application/pdf', content: PDF },
      );
      expect(doc.status).toBe(201);
      const viaOther = await fetch(`${other.baseUrl}/api/documents/${doc.body.data.id}/download`, {
        headers: { cookie: cookieOf(admin) },
      });
      expect(viaOther.status).toBe(200);
      expect(Buffer.from(await viaOther.arrayBuffer()).equals(PDF)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
