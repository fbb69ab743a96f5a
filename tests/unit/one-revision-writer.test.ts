import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Revisions have one writer (issue 29 point 5): the data service and the batch and field-value writers it runs, in
 * src/server/records/ (records/revisions.ts `writeRevisions`). A feature that needs a revision beside its write (a
 * record type's field or logic changed is a revision of the schema) asks the service (`RecordService.reviseWithin`).
 */
const ROOT = path.resolve(__dirname, '../../src/server');
const WRITER = path.join(ROOT, 'records');
const MIGRATIONS = path.join(ROOT, 'db', 'migrations');

const WRITES_REVISIONS = /\bwriteRevisions\b|insertInto\(\s*'revisions'|insert\s+into\s+revisions\b/i;

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (file === WRITER || file === MIGRATIONS) return [];
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('one writer of revisions', () => {
  const files = sources(ROOT);

  it('scans the server outside records/', () => {
    expect(files.some((file) => file.endsWith(path.join('schemas', 'schema-revisions.ts')))).toBe(true);
  });

  it('nothing outside src/server/records writes a revision', () => {
    const found = files.filter((file) => WRITES_REVISIONS.test(code(readFileSync(file, 'utf8'))));
    expect(found.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  it('the scan would see a writer (the pattern matches such code)', () => {
    expect(WRITES_REVISIONS.test("await writeRevisions(trx, user, [{ type: 'schema' }]);")).toBe(true);
    expect(WRITES_REVISIONS.test("await trx.insertInto('revisions').values(row).execute();")).toBe(true);
    expect(WRITES_REVISIONS.test('await records.reviseWithin(trx, target, user, changes);')).toBe(false);
  });
});
