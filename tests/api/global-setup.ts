import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { makeDatabaseTemplates } from '../support/database-templates.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';

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

/** The folder in memory that Linux offers every process (tmpfs), when there is one this user may write to. */
const MEMORY_FOLDER = '/dev/shm';
/**
 * What the suite may hold there at once: the templates, a PostgreSQL server's folder and the databases of the files
 * running. A container's /dev/shm is often 64 MB; below this the disk is used as before.
 */
const MEMORY_FOLDER_NEEDS = 2 * 1024 ** 3;

/**
 * Every app's data folder, the templates, the PostgreSQL server's folder and each test's own temporary files go in
 * memory instead of on the disk: each file copies a 40 MB database folder and removes it again, and on a shared disk
 * that waiting, not the CPU, was most of a file's start. The files and the code that writes them are the same (fsync
 * and all); only where `os.tmpdir()` points changes, for this run and the processes and test workers it starts.
 * A TMPDIR set by whoever runs the suite is kept.
 */
function scratchInMemory() {
  if (process.env.TMPDIR) return;
  try {
    if (!statSync(MEMORY_FOLDER).isDirectory()) return;
    accessSync(MEMORY_FOLDER, constants.W_OK);
    const space = statfsSync(MEMORY_FOLDER);
    if (space.bavail * space.bsize < MEMORY_FOLDER_NEEDS) return;
  } catch {
    return;
  }
  process.env.TMPDIR = MEMORY_FOLDER;
}
