import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';

/**
 * An embedded database made once and migrated, copied by each test app: creating a PGlite data folder (its initdb)
 * takes several seconds and the suite starts some forty apps. Seeding stays per app (it depends on the app's settings).
 */
async function makePGliteTemplate(): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-api-template-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}

/**
 * The API suite runs on PGlite by default. With TEST_DATABASE=postgres it runs on PostgreSQL instead: a given
 * TEST_DATABASE_URL (a server's `postgres` database) is used as is; otherwise a throwaway server is started in a
 * temporary folder from the installed binaries. Each test app then creates its own database on that server.
 */
export default async function setup(project: TestProject) {
  let server: PostgresServer | null = null;
  let url = process.env.TEST_DATABASE_URL || undefined;
  if (process.env.TEST_DATABASE === 'postgres' && !url) {
    const starting = startPostgres();
    if (starting) {
      server = await starting;
      url = server.url;
    } else {
      console.warn(
        '\n  TEST_DATABASE=postgres, but no PostgreSQL server binary (initdb, pg_ctl) was found: the API suite runs on PGlite.\n',
      );
    }
  }
  if (url) {
    process.env.TEST_DATABASE_URL = url;
    console.log(`\n  API suite database: PostgreSQL (${url})\n`);
  }
  project.provide('TEST_DATABASE_URL', url);
  const template = url ? undefined : await makePGliteTemplate();
  project.provide('PGLITE_TEMPLATE', template);
  return async () => {
    await server?.stop();
    if (template) rmSync(template, { recursive: true, force: true });
  };
}
