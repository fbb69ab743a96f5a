import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive, type Manifest } from '../../src/server/backups/archive.js';
import { makeBackup } from '../../src/server/backups/backup.js';
import { countTables } from '../../src/server/backups/database-copy.js';
import { restoreBackup } from '../../src/server/backups/restore.js';
import { keepNewest, scheduledKey } from '../../src/server/backups/schedule.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { openFileStore } from '../../src/server/files/file-store.js';
import { freePort, makeTempFolder, type RunningServer, removeTempFolder, startServer } from '../bench/lib/server.js';
import { upload } from '../fixtures/upload.js';
import { backupCli } from '../support/backup-cli.js';
import { startS3 } from '../support/s3-server.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createClient,
  createPostgresDatabase,
  startTestApp,
  type TestApp,
  type TestClient,
  testDatabaseUrl,
} from '../support/test-app.js';

/**
 * Backups (docs/operations.md "Backups") on the database the suite runs on: `npm run backup` while a real server
 * (`npm start`) takes writes, `npm run restore` into a fresh data folder (and, on PostgreSQL, a fresh database), every
 * table's count and every file's checksum equal to the manifest, the documents downloadable from a server started on
 * the restored folder; damaged archives refused with nothing changed; the scheduled backup and its status.
 */
const serverUrl = testDatabaseUrl();
const databases: Array<{ drop(): Promise<void> }> = [];
const folders: string[] = [];
const servers: RunningServer[] = [];

async function place() {
  const dataDir = makeTempFolder('om-backup-');
  folders.push(dataDir);
  const database = serverUrl ? await createPostgresDatabase(serverUrl) : null;
  if (database) databases.push(database);
  return { dataDir, databaseUrl: database?.url };
}
type Place = Awaited<ReturnType<typeof place>>;

async function serve(where: Place) {
  const server = await startServer({
    ...where,
    port: await freePort(),
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    env: { LOGIN_MAX_ATTEMPTS: '1000', TILE_URL: '' },
  });
  servers.push(server);
  return server;
}

async function signIn(baseUrl: string) {
  const client = createClient(baseUrl);
  expect((await client.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
  return client;
}

const download = (baseUrl: string, client: TestClient, url: string) =>
  fetch(baseUrl + url, { headers: { cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; ') } });

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const database of databases) await database.drop();
  for (const folder of folders) removeTempFolder(folder);
}, 120_000);

describe('npm run backup while the server runs, npm run restore into a fresh folder', () => {
  let source: Place;
  let server: RunningServer;
  let admin: TestClient;
  let archive: string;
  let manifest: Manifest;
  const documents: Array<{ id: number; content: Buffer }> = [];
  let exportId: number;
  let exportBytes: Buffer;
  const acknowledged: number[] = [];
  let acknowledgedBeforeBackup: number[] = [];

  beforeAll(async () => {
    source = await place();
    server = await serve(source);
    admin = await signIn(server.baseUrl);
    const site = (await admin.post('/api/sites', { name: 'Backed-up site', type: 'union' })).body.data;
    for (let i = 0; i < 3; i++) {
      const content = Buffer.from(`%PDF-1.4\n% document ${i} ${'x'.repeat(1_000 * (i + 1))}\ntrailer <<>>\n%%EOF\n`);
      const made = await upload(
        { baseUrl: server.baseUrl } as TestApp,
        admin,
        '/api/documents',
        { documentable_type: 'site', documentable_id: site.id },
        [{ name: `permit-${i}.pdf`, content, type: 'application/pdf' }],
        'file',
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      documents.push({ id: made.body.data.id, content });
    }
    const started = await admin.get('/api/exports/download?resource=sites&columns=name,type&background=1');
    exportId = started.body.data.id;
    for (let i = 0; i < 600 && (await admin.get(`/api/exports/${exportId}`)).body.data.status !== 'complete'; i++)
      await sleep(100);
    const exported = await download(server.baseUrl, admin, `/api/exports/${exportId}/download`);
    expect(exported.status).toBe(200);
    exportBytes = Buffer.from(await exported.arrayBuffer());
  }, 300_000);

  it('writes one archive while sites are being written, with a manifest of counts and checksums', async () => {
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const res = await admin.post('/api/sites', { name: `Written meanwhile ${i}`, type: 'non-union' });
        expect(res.status).toBe(201);
        acknowledged.push(res.body.data.id);
        // A busy office's pace, not a loop that leaves the server no time for the backup (27 s of a 6 MB archive).
        await sleep(100);
      }
    })();
    while (acknowledged.length < 5) await sleep(20);
    acknowledgedBeforeBackup = [...acknowledged];
    archive = path.join(source.dataDir, '..', `${path.basename(source.dataDir)}.tar.gz`);
    folders.push(archive);
    const backup = await backupCli('backup', archive, source);
    const duringBackup = acknowledged.length - acknowledgedBeforeBackup.length;
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(
      /Backup written to .+\.tar\.gz \(\d+\.\d MB in \d+\.\d s\): \d+ tables, \d+ rows, 4 files; the database was held \d+\.\d\d s\./,
    );
    expect(duringBackup, 'sites were written while the backup ran').toBeGreaterThan(0);

    manifest = await extractArchive(archive, makeTempFolder('om-backup-check-'));
    expect(manifest.database.kind).toBe(serverUrl ? 'postgres' : 'pglite');
    expect(manifest.files.count).toBe(4); // three documents and the export
    const files = manifest.entries.filter((entry) => entry.path.startsWith('files/'));
    expect(files.map((entry) => entry.sha256).sort()).toEqual(
      [...documents.map((doc) => sha256(doc.content)), sha256(exportBytes)].sort(),
    );
    expect(manifest.database.tables.documents).toBe(3);
    expect(manifest.database.tables.sites).toBeGreaterThanOrEqual(1 + acknowledgedBeforeBackup.length);
    expect(manifest.database.tables.backup_runs).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('restores into a fresh folder: every table count and file checksum equal, documents and exports download', async () => {
    const fresh = await place();
    const restore = await backupCli('restore', archive, fresh);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('with the counts of the manifest');

    const database = await openDatabase(fresh);
    try {
      expect(await countTables(database.db)).toEqual(manifest.database.tables);
      const ids = (await database.db.selectFrom('sites').select('id').execute()).map((row) => Number(row.id));
      for (const id of acknowledgedBeforeBackup) expect(ids).toContain(id);
      const run = await database.db.selectFrom('backup_runs').selectAll().orderBy('id', 'desc').executeTakeFirst();
      expect(run).toMatchObject({ id: manifest.run_id, status: 'succeeded' });
    } finally {
      await database.close();
    }
    const stored = readdirSync(path.join(fresh.dataDir, 'files'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const full = path.join(entry.parentPath, entry.name);
        return {
          path: `files/${path.relative(path.join(fresh.dataDir, 'files'), full)}`,
          sha256: sha256(readFileSync(full)),
        };
      });
    expect(stored.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      manifest.entries
        .filter((entry) => entry.path.startsWith('files/'))
        .map(({ path, sha256 }) => ({ path, sha256 }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    );

    const restored = await serve(fresh);
    const client = await signIn(restored.baseUrl);
    for (const doc of documents) {
      const res = await download(restored.baseUrl, client, `/api/documents/${doc.id}/download`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(doc.content)).toBe(true);
    }
    const exported = await download(restored.baseUrl, client, `/api/exports/${exportId}/download`);
    expect(exported.status).toBe(200);
    expect(Buffer.from(await exported.arrayBuffer()).equals(exportBytes)).toBe(true);
  }, 300_000);

  it('refuses a damaged archive and changes nothing: flipped bytes, cut short, a file changed inside', async () => {
    const whole = readFileSync(archive);
    const flipped = Buffer.from(whole);
    for (let i = 0; i < 16; i++) flipped[Math.floor(whole.length / 2) + i] ^= 0xff;
    const cut = whole.subarray(0, Math.floor(whole.length * 0.7));
    const tampered = `${archive}.tampered.tar.gz`;
    await changeOneFile(archive, tampered);
    const damaged: Array<[string, RegExp]> = [
      [`${archive}.flipped.tar.gz`, /is damaged: it /],
      [`${archive}.cut.tar.gz`, /is damaged: it cannot be read to its end|is damaged: it has no manifest\.json/],
      [tampered, /is damaged: files\/.+ does not match its checksum/],
    ];
    writeFileSync(damaged[0][0], flipped);
    writeFileSync(damaged[1][0], cut);
    for (const [file, reason] of damaged) {
      folders.push(file);
      const target = await place();
      const restore = await backupCli('restore', file, target);
      expect(restore.code, restore.output).toBe(1);
      expect(restore.output).toMatch(reason);
      expect(restore.output).toContain('Nothing was restored.');
      expect(readdirSync(target.dataDir)).toEqual([]);
      if (target.databaseUrl) {
        const database = await openDatabase(target);
        try {
          expect(await countTables(database.db)).toEqual({});
        } finally {
          await database.close();
        }
      }
    }
  }, 300_000);
});

/** Copies the archive with one byte of its first stored file changed, the manifest left as it was. */
async function changeOneFile(from: string, to: string) {
  const extract = tar.extract();
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(to));
  const reading = pipeline(createReadStream(from), createGunzip(), extract);
  let changed = false;
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    const body = Buffer.concat(parts);
    if (!changed && entry.header.name.startsWith('files/') && body.length > 0) {
      body[body.length - 1] ^= 0x01;
      changed = true;
    }
    if (entry.header.type === 'file') pack.entry(entry.header, body);
    else pack.entry(entry.header);
  }
  pack.finalize();
  await Promise.all([reading, written]);
}

describe('scheduled backups (BACKUP_CRON, BACKUP_KEEP) and their status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ BACKUP_CRON: '*/2 * * * * *', BACKUP_KEEP: '2' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('makes a backup at each time, keeps the newest two, and shows the last to an administrator only', async () => {
    const admin = await t.admin();
    const organizer = await t.signIn((await t.createUser({ role: 'user' })).email);
    let runs = 0;
    for (let i = 0; i < 600 && runs < 3; i++) {
      await sleep(200);
      runs = Number(
        (
          await t.ctx.db
            .selectFrom('backup_runs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'succeeded')
            .executeTakeFirstOrThrow()
        ).n,
      );
    }
    expect(runs).toBeGreaterThanOrEqual(3);

    const status = await admin.get('/api/system/status');
    expect(status.status).toBe(200);
    expect(status.body.data.backup).toMatchObject({ schedule: '*/2 * * * * *', keep: 2 });
    const last = status.body.data.backup.last;
    expect(['succeeded', 'running']).toContain(last.status);
    const succeeded = await t.ctx.db
      .selectFrom('backup_runs')
      .selectAll()
      .where('status', '=', 'succeeded')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(succeeded).toMatchObject({ trigger: 'schedule', file_count: 0 });
    expect(String(succeeded.target)).toMatch(/^backups\/organizing-map-backup-.+\.tar\.gz$/);
    expect(new Date(status.body.data.backup.next_at).getTime()).toBeGreaterThan(Date.now() - 2_000);

    // The archives are kept in the file store (the data folder here), the newest two only.
    await sleep(500);
    const kept = readdirSync(path.join(t.config.dataDir, 'files', 'backups'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThanOrEqual(2);
    expect(kept).toContain(path.basename(succeeded.target!));

    const refused = await organizer.get('/api/system/status');
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('backup');
  }, 180_000);
});

describe('with the files in an S3-compatible bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3();
    t = await startTestApp({ ...s3.env, S3_PREFIX: 'source/' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it("backs up the bucket's objects, restores them into another prefix, and keeps scheduled archives there", async () => {
    const admin = await t.admin();
    const site = (await admin.post('/api/sites', { name: 'Site with a bucket', type: 'union' })).body.data;
    const content = Buffer.from('%PDF-1.4\n% kept in the bucket\ntrailer <<>>\n%%EOF\n');
    const made = await upload(
      t,
      admin,
      '/api/documents',
      { documentable_type: 'site', documentable_id: site.id },
      [{ name: 'bucket.pdf', content, type: 'application/pdf' }],
      'file',
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sources = { database: t.database, files: t.ctx.files, config: t.config };

    const file = path.join(makeTempFolder('om-backup-s3-'), 'bucket.tar.gz');
    folders.push(path.dirname(file));
    const result = await makeBackup(sources, { file }, { trigger: 'manual' });
    const stored = result.manifest.entries.filter((entry) => entry.path.startsWith('files/'));
    expect(stored).toEqual([expect.objectContaining({ sha256: sha256(content), size: content.length })]);
    expect(stored[0].path).toMatch(/^files\/documents\//);

    const fresh = await place();
    const config = loadConfig({
      DATA_DIR: fresh.dataDir,
      DATABASE_URL: fresh.databaseUrl,
      ...s3.env,
      S3_PREFIX: 'restored/',
    });
    await restoreBackup(config, file, () => {});
    const bucket = await openFileStore(config);
    const key = stored[0].path.slice('files/'.length);
    const read = await bucket.read(key);
    expect(read).not.toBeNull();
    const parts: Buffer[] = [];
    for await (const chunk of read!.stream) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).equals(content)).toBe(true);

    // Scheduled archives go to the bucket's backups/, the newest BACKUP_KEEP kept.
    for (const minute of [1, 2, 3])
      await makeBackup(
        sources,
        { key: scheduledKey(new Date(Date.UTC(2026, 10, 29, 2, minute))) },
        { trigger: 'schedule' },
      );
    await keepNewest(sources, 2);
    const kept: string[] = [];
    for await (const object of t.ctx.files.list('backups/')) kept.push(object.key);
    expect(kept.sort()).toEqual([
      'backups/organizing-map-backup-2026-11-29T02-02-00Z.tar.gz',
      'backups/organizing-map-backup-2026-11-29T02-03-00Z.tar.gz',
    ]);
  }, 240_000);
});
