import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/server/config/config.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { seedDatabase } from '../../src/server/seed/seed.js';

/**
 * Databases made once per API run and copied by each test app, instead of each app creating, migrating and seeding
 * its own (a PGlite initdb takes seconds; the migrations take about 3 s per app on PostgreSQL; the seed hashes a
 * password and loads the schema files). `migrated` has every migration; `seeded` is that plus the seed of an app on
 * the test settings (TEMPLATE_SEED_ENV) and one start of an app (`startOnce`). For PGlite each is a data folder (its `db` folder is copied); for PostgreSQL
 * each is a database name on the suite's server (`create database … template …`).
 * The app key is left out: each app still makes its own (ensureAppKey).
 */
export interface DatabaseTemplates {
  kind: 'pglite' | 'postgres';
  migrated: string;
  seeded: string;
}

/** The settings the seed reads (src/server/seed/seed.ts) as test apps have them unless told otherwise. */
export const TEMPLATE_SEED_ENV = {
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'admin-password-123',
  SEED_DEMO: '0',
} as const;

/** True when an app started with `overrides` would seed exactly what the seeded template holds. */
export function seedsLikeTemplate(overrides: NodeJS.ProcessEnv): boolean {
  return Object.entries(TEMPLATE_SEED_ENV).every(
    ([key, value]) => overrides[key] === undefined || overrides[key] === value,
  );
}

async function migrateAndMaybeSeed(config: { dataDir: string; databaseUrl: string | undefined }, seed: boolean) {
  const database = await openDatabase(config);
  try {
    await migrate(database.db);
    if (!seed) return;
    const settings = loadConfig({ NODE_ENV: 'test', DATA_DIR: config.dataDir, ...TEMPLATE_SEED_ENV });
    await seedDatabase(database.db, settings);
    await startOnce(database, settings);
  } finally {
    await database.close();
  }
}

/**
 * Starts an app on the seeded template once and closes it, as a server's database is after its first start: the
 * search, sort and custom field indexes an app makes when it starts (schemas/schema-routes.ts, some 230 on the seeded
 * types) are then in every copy, where each test app made them all anew (about half a second of the database's CPU
 * per file). Each app's start still runs the same checks and finds them made; apps on the migrated template still
 * make them. Nothing else is written (no row changes); the app key stays out, as above.
 */
async function startOnce(database: Database, config: Config) {
  const { app } = await buildApp({
    config: { ...config, appKey: randomBytes(32).toString('hex') },
    database,
    logger: false,
  });
  try {
    await app.ready();
  } finally {
    await app.close();
  }
}

/** Makes both templates: embedded ones in temporary folders, or databases on the PostgreSQL server at `serverUrl`. */
export async function makeDatabaseTemplates(
  serverUrl: string | undefined,
): Promise<{ templates: DatabaseTemplates; remove(): Promise<void> }> {
  if (!serverUrl) {
    const migrated = mkdtempSync(path.join(os.tmpdir(), 'om-api-template-'));
    await migrateAndMaybeSeed({ dataDir: migrated, databaseUrl: undefined }, false);
    const seeded = mkdtempSync(path.join(os.tmpdir(), 'om-api-template-seeded-'));
    cpSync(path.join(migrated, 'db'), path.join(seeded, 'db'), { recursive: true });
    await migrateAndMaybeSeed({ dataDir: seeded, databaseUrl: undefined }, true);
    return {
      templates: { kind: 'pglite', migrated, seeded },
      async remove() {
        for (const folder of [migrated, seeded]) rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const suffix = randomBytes(4).toString('hex');
  const migrated = `template_migrated_${suffix}`;
  const seeded = `template_seeded_${suffix}`;
  const urlOf = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  await onServer(serverUrl, `create database ${migrated}`);
  await migrateAndMaybeSeed({ dataDir: os.tmpdir(), databaseUrl: urlOf(migrated) }, false);
  await onServer(serverUrl, `create database ${seeded} template ${migrated}`);
  await migrateAndMaybeSeed({ dataDir: os.tmpdir(), databaseUrl: urlOf(seeded) }, true);
  return {
    templates: { kind: 'postgres', migrated, seeded },
    async remove() {
      for (const name of [seeded, migrated])
        await onServer(serverUrl, `drop database if exists ${name}`).catch(() => {});
    },
  };
}

/** One statement on the server's maintenance database (`create database` cannot run in a transaction). */
async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
