import type { TestProject } from 'vitest/node';
import { makeDatabaseTemplates } from '../support/database-templates.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { scratchInMemory } from '../support/scratch-in-memory.js';

/**
 * The API suite runs on PGlite by default. With TEST_DATABASE=postgres it runs on PostgreSQL instead: a given
 * TEST_DATABASE_URL (a server's `postgres` database) is used as is; otherwise a throwaway server is started in a
 * temporary folder from the installed binaries. Each test app then makes its own database on that server, or its own
 * data folder, as a copy of a template made here once (tests/support/database-templates.ts).
 */
export default async function setup(project: TestProject) {
  scratchInMemory();
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
  const made = await makeDatabaseTemplates(url);
  project.provide('DATABASE_TEMPLATES', made.templates);
  return async () => {
    await made.remove();
    await server?.stop();
  };
}
