import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATABASE_TYPES_FILE, freshDatabaseTypes } from '../../src/server/db/database-types.js';
import { testDatabaseUrl } from '../support/test-app.js';

// The embedded database is migrated whatever the pass: once is enough.
describe.skipIf(testDatabaseUrl())('the generated database types', () => {
  it('are those of a freshly migrated database (after adding a migration: npm run db:types)', async () => {
    const fresh = await freshDatabaseTypes();
    expect(fresh).toContain('export interface DB {');
    expect(
      readFileSync(DATABASE_TYPES_FILE, 'utf8'),
      'src/server/db/schema.generated.ts is stale: run npm run db:types',
    ).toBe(fresh);
  }, 120_000);
});
