import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/config.js';
import { type Database, DataFolderLockedError, openDatabase } from '../../src/server/db/database.js';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { migrate } from '../../src/server/db/migrate.js';
import { seededRoles } from '../../src/server/seed/roles.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createPostgresDatabase,
  startTestApp,
  testDatabaseUrl,
} from '../support/test-app.js';

/** Spawning a TypeScript child process and opening PGlite can take a while on a busy machine. */
const SLOW = 120_000;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'om-db-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Where the suite's database lives: a PGlite folder, or a fresh database on the PostgreSQL test server. */
async function freshLocation(): Promise<{ DATA_DIR: string; DATABASE_URL?: string }> {
  const serverUrl = testDatabaseUrl();
  if (!serverUrl) return { DATA_DIR: tempDir() };
  const created = await createPostgresDatabase(serverUrl);
  cleanups.push(() => created.drop());
  return { DATA_DIR: tempDir(), DATABASE_URL: created.url };
}

const count = async (database: Database, table: string) =>
  Number(
    (await dynamicTables(database.db).selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow())
      .n,
  );

describe('migrations', () => {
  it(
    'apply once; running them (and the seed and app key) again changes nothing',
    async () => {
      const location = await freshLocation();
      const config = loadConfig({ ...location, ADMIN_PASSWORD, SEED_DEMO: '0', LOG_LEVEL: 'silent' });
      const database = await openDatabase(config);
      try {
        expect(database.kind).toBe(location.DATABASE_URL ? 'postgres' : 'pglite');
        const applied = await migrate(database.db);
        expect(applied.slice(0, 2)).toEqual(['001_platform', '002_records']);
        expect(await migrate(database.db)).toEqual([]);
        expect(await count(database, 'kysely_migration')).toBe(applied.length);

        const key = await ensureAppKey(database.db);
        expect(key).toMatch(/^[0-9a-f]{64}$/);
        expect(await ensureAppKey(database.db)).toBe(key);

        expect((await seedDatabase(database.db, config)).seeded).toBe(true);
        const counts = {
          roles: await count(database, 'roles'),
          users: await count(database, 'users'),
          features: await count(database, 'features'),
          trades: await count(database, 'trades'),
        };
        expect(counts.roles).toBe(seededRoles().length);
        expect(counts.users).toBe(1);
        expect(await seedDatabase(database.db, config)).toEqual({ seeded: false });
        expect({
          roles: await count(database, 'roles'),
          users: await count(database, 'users'),
          features: await count(database, 'features'),
          trades: await count(database, 'trades'),
        }).toEqual(counts);
      } finally {
        await database.close();
      }
      // And again after reopening.
      const reopened = await openDatabase(config);
      try {
        expect(await migrate(reopened.db)).toEqual([]);
        expect(await count(reopened, 'roles')).toBe(seededRoles().length);
      } finally {
        await reopened.close();
        await reopened.close(); // closing twice is safe
      }
    },
    SLOW,
  );
});

describe('restart', () => {
  it(
    'keeps data, the first administrator password and the app key across closing and reopening',
    async () => {
      const location = await freshLocation();
      const first = await startTestApp(location);
      let teamId: number;
      let appKey: string;
      try {
        const admin = await first.admin();
        const created = await admin.post('/api/teams', { name: 'Survivor', description: 'Still here after a restart' });
        expect(created.status).toBe(201);
        teamId = created.body.data.id;
        const person = await first.createUser({ role: 'leader', email: 'survivor@example.com' });
        expect(person.id).toBeGreaterThan(0);
        appKey = first.config.appKey!;
      } finally {
        await first.close();
      }
      if (!location.DATABASE_URL) expect(existsSync(path.join(location.DATA_DIR, 'organizing-map.lock'))).toBe(false);

      // A second start with another ADMIN_PASSWORD does not seed again or reset the administrator.
      const second = await startTestApp({ ...location, ADMIN_PASSWORD: 'a-different-password' });
      cleanups.push(() => second.close());
      expect(second.config.appKey).toBe(appKey);
      expect((await second.client().login(ADMIN_EMAIL, 'a-different-password')).status).toBe(422);
      const admin = await second.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
      const team = await admin.get(`/api/teams/${teamId}`);
      expect(team.status).toBe(200);
      expect(team.body.data).toMatchObject({ name: 'Survivor', description: 'Still here after a restart' });
      expect((await second.signIn('survivor@example.com')).jar.size).toBeGreaterThan(0);
      const history = await admin.get(`/api/revisions?type=team&revisionable_id=${teamId}`);
      expect(history.body.data.map((r: any) => r.action)).toEqual(['created']);
      expect(await count(second.database, 'roles')).toBe(seededRoles().length);
    },
    SLOW,
  );
});

describe('the PGlite data folder lock', () => {
  const holders: ChildProcess[] = [];
  cleanups.push(() => holders.forEach((child) => child.exitCode === null && child.kill('SIGKILL')));

  /** Another process that opens the data folder, as a second server would. Resolves once it holds it. */
  function holdFolder(dataDir: string): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'tests/api/fixtures/hold-data-folder.ts'), dataDir],
      { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    holders.push(child);
    return new Promise((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('ready')) resolve(child);
      });
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => reject(new Error(`The holder exited (${code}) before holding the folder: ${output}`)));
    });
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
    );

  it(
    'refuses a second process, and main.ts says why; the folder is free again once the holder stops',
    async () => {
      const dataDir = tempDir();
      const holder = await holdFolder(dataDir);
      const lockFile = path.join(dataDir, 'organizing-map.lock');
      expect(readFileSync(lockFile, 'utf8')).toBe(String(holder.pid));

      const attempt = openDatabase({ dataDir, databaseUrl: undefined });
      await expect(attempt).rejects.toBeInstanceOf(DataFolderLockedError);
      await expect(attempt).rejects.toThrow(`is in use by another server process (pid ${holder.pid})`);
      // The refusal did not disturb the holder's lock.
      expect(readFileSync(lockFile, 'utf8')).toBe(String(holder.pid));

      // The server itself refuses to start on the folder, with a message and a failing exit code.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD,
      };
      delete env.DATABASE_URL;
      const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      holders.push(server);
      let stderr = '';
      server.stderr!.on('data', (chunk) => (stderr += chunk));
      expect(await exited(server)).toBe(1);
      expect(stderr).toContain('Cannot start: The data folder');
      expect(stderr).toContain(`pid ${holder.pid}`);

      holder.stdin!.end();
      expect(await exited(holder)).toBe(0);
      expect(existsSync(lockFile)).toBe(false);
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      await database.close();
      expect(existsSync(lockFile)).toBe(false);
    },
    SLOW,
  );

  it(
    'takes over a lock left by a process that died, and the data is intact',
    async () => {
      const dataDir = tempDir();
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      await migrate(database.db);
      await database.db.insertInto('teams').values({ name: 'Before the crash' }).execute();
      await database.close();

      const holder = await holdFolder(dataDir);
      holder.kill('SIGKILL');
      await exited(holder);
      expect(readFileSync(path.join(dataDir, 'organizing-map.lock'), 'utf8')).toBe(String(holder.pid));

      const reopened = await openDatabase({ dataDir, databaseUrl: undefined });
      try {
        expect(await migrate(reopened.db)).toEqual([]);
        const teams = await reopened.db.selectFrom('teams').select('name').execute();
        expect(teams.map((row) => row.name)).toEqual(['Before the crash']);
      } finally {
        await reopened.close();
      }
    },
    SLOW,
  );
});
