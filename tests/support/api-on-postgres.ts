/**
 * `npm run test:api:postgres`: runs the API suite a second time on a real PostgreSQL server when this machine
 * has one (the suite's global set-up starts it in a temporary folder); says so and succeeds when it has none.
 */
import { spawnSync } from 'node:child_process';
import { findPostgresBinaries } from './postgres-server.js';

if (!findPostgresBinaries()) {
  console.log('No PostgreSQL server binary found: the API suite ran on the embedded database (PGlite) only.');
  process.exit(0);
}
const result = spawnSync('npx', ['vitest', 'run', '--project', 'api', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE: 'postgres' },
});
process.exit(result.status ?? 1);
