/**
 * `npm run test:api:shared` (what `npm test` runs): every API file once, the files shared between the two databases,
 * instead of the whole suite twice (`npm run test:api` on PGlite, `npm run test:api:postgres` on PostgreSQL, each
 * whole). Two whole passes are about 27 minutes of a two-core machine's CPU (estimated from a sample of files), more
 * than CI's 20-minute budget by themselves (docs/testing.md).
 *
 * - A file whose tests depend on which database runs them (it reads `testDatabaseUrl()`, TEST_DATABASE, its own
 *   `onPostgres`/`onPglite` or the app's `database.kind`) runs on both.
 * - Every other file runs on one: the sorted list is dealt out in turn, so each database gets half of each part of
 *   the suite, and a new file lands on one of them without anyone choosing.
 *
 * The PGlite share runs first with one worker (beside the browser suite in `npm test`), then the PostgreSQL share with
 * the suite's default workers. Without PostgreSQL's binaries every file runs on PGlite.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBinaries } from './postgres-server.js';

const API_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'api');
const DATABASE_DEPENDENT = /testDatabaseUrl\(|TEST_DATABASE|\bonPostgres\b|\bonPglite\b|database\.kind\b/;

export interface ApiShares {
  pglite: string[];
  postgres: string[];
}

/** Each API file (as `tests/api/<name>.test.ts`) under the database or databases that run it. */
export function apiShares(folder = API_FOLDER): ApiShares {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
  const shares: ApiShares = { pglite: [], postgres: [] };
  let turn = 0;
  for (const name of files) {
    const file = `tests/api/${name}`;
    if (DATABASE_DEPENDENT.test(readFileSync(path.join(folder, name), 'utf8'))) {
      shares.pglite.push(file);
      shares.postgres.push(file);
    } else (turn++ % 2 === 0 ? shares.pglite : shares.postgres).push(file);
  }
  return shares;
}

/** Runs the API suite's files `files` (all of them when none) with `env` added; its exit status. */
export function runApiFiles(files: string[], env: NodeJS.ProcessEnv): number {
  // Vitest takes each argument as a filter on the file's path: a whole path names only that file.
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'api', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const shares = apiShares();
  if (!findPostgresBinaries()) {
    console.log('No PostgreSQL server binary found: every API file runs on the embedded database (PGlite).');
    process.exit(runApiFiles([], { API_WORKERS: process.env.API_WORKERS ?? '1' }));
  }
  console.log(
    `API suite: ${shares.pglite.length} files on PGlite, ${shares.postgres.length} on PostgreSQL ` +
      `(${shares.pglite.length + shares.postgres.length - new Set([...shares.pglite, ...shares.postgres]).size} on both).`,
  );
  const embedded = runApiFiles(shares.pglite, { API_WORKERS: process.env.API_WORKERS ?? '1' });
  const server = runApiFiles(shares.postgres, { TEST_DATABASE: 'postgres' });
  process.exit(embedded || server);
}
