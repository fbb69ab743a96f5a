/**
 * `npm run test:api:postgres`: runs the API suite a second time on a real PostgreSQL server when this machine
 * has one (the suite's global set-up starts it in a temporary folder); says so and succeeds when it has none.
 */
import { runApiFiles } from './api-shares.js';
import { findPostgresBinaries } from './postgres-server.js';

if (!findPostgresBinaries()) {
  console.log('No PostgreSQL server binary found: the API suite ran on the embedded database (PGlite) only.');
  process.exit(0);
}
process.exit(runApiFiles(process.argv.slice(2), { TEST_DATABASE: 'postgres' }));
