import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server reads and writes through the types generated from the migrations (src/server/db/schema.generated.ts):
 * a `Kysely<any>` or `Transaction<any>` would let a wrong table or column name through `tsc`. Tables named only at run
 * time go through the one door, `db/dynamic-tables.ts`.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const UNTYPED = /\b(Kysely|Transaction)<any>/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('database types', () => {
  it('no file of src/ opens the database untyped', () => {
    const untyped = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (UNTYPED.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(untyped).toEqual([]);
  });
});
