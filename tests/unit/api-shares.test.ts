import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiShares } from '../support/api-shares.js';

describe('the API files shared between the databases in `npm test`', () => {
  const shares = apiShares();
  const all = readdirSync('tests/api')
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `tests/api/${name}`);

  it('runs every file at least once', () => {
    expect(new Set([...shares.pglite, ...shares.postgres])).toEqual(new Set(all));
  });

  it('runs a file that depends on its database on both, every other file on one', () => {
    const onBoth = (file: string) => shares.pglite.includes(file) && shares.postgres.includes(file);
    // Reads testDatabaseUrl(), its own onPostgres, the app's database.kind, TEST_DATABASE (through its helper).
    for (const file of ['pglite-thread', 'supervisor', 'kept-names', 'backup'])
      expect(onBoth(`tests/api/${file}.test.ts`), file).toBe(true);
    for (const file of ['auth', 'schemas', 'views', 'hostile-input'])
      expect(onBoth(`tests/api/${file}.test.ts`), file).toBe(false);
  });

  it('gives each database about half of the rest', () => {
    const only = (mine: string[], theirs: string[]) => mine.filter((file) => !theirs.includes(file)).length;
    expect(Math.abs(only(shares.pglite, shares.postgres) - only(shares.postgres, shares.pglite))).toBeLessThanOrEqual(
      1,
    );
  });
});
