import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One access policy (DESIGN.md 18, issue 31): which rows a person reads or changes is written in src/server/access/
 * and nowhere else. A second place that writes a row rule fails here: the old per-resource row filters, the
 * category and turf helpers of the permission strings used to filter rows, the turf's SQL, reads of who a region is
 * assigned to, a filter on a resource's owner column. (The permission strings themselves, `can`, stay everyone's:
 * whether an action is allowed at all is not a row rule.)
 */
const ROOT = path.resolve(__dirname, '../../src/server');
const ALLOWED = [path.join(ROOT, 'access'), path.join(ROOT, 'db', 'migrations')];

const PATTERNS: Array<{ pattern: RegExp; what: string; except?: string[] }> = [
  { pattern: /\browFilter\b/, what: 'a resource row filter' },
  { pattern: /\bhasRowRules\b|\breadableOwners\b|\bturfCondition\b|\bturfRowFilter\b/, what: 'an old row-rule helper' },
  { pattern: /\bpermittedCategories\(|\blimitedToTurf\(|\bcanOnCategory\(/, what: 'a category or turf rule' },
  // The embedded database's dialect knows the turf test's text to plan it for its values (not a rule).
  { pattern: /in_region_ids[^;\n]{0,20}&&/, what: 'the turf test', except: ['db/pglite-session.ts'] },
  {
    pattern: /from\s+region_users|selectFrom\(\s*'region_users'|join\s+region_users/i,
    what: 'who a region is assigned to',
  },
  { pattern: /where\([^)]*\bownerColumn\b/, what: 'an owner column filter' },
  // Whose each record is (migration 076) is the "own" and "team" rules' table: read and written by access/ alone.
  { pattern: /\brecord_holders\b/, what: 'a read of whose records are', except: ['db/schema.generated.ts'] },
];

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (ALLOWED.some((allowed) => file === allowed)) return [];
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The code without its comments (a comment may name a rule; only code writes one). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('no second row rule', () => {
  const files = sources(ROOT);

  it('scans the server', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.endsWith(path.join('records', 'record-service.ts')))).toBe(true);
  });

  for (const { pattern, what, except = [] } of PATTERNS) {
    it(`nothing outside src/server/access writes ${what}`, () => {
      const found = files.filter(
        (file) => !except.includes(path.relative(ROOT, file)) && pattern.test(code(readFileSync(file, 'utf8'))),
      );
      expect(found.map((file) => path.relative(ROOT, file))).toEqual([]);
    });
  }

  it('the scan would see a restated rule (the patterns match the old code)', () => {
    const $ = '$';
    const old = [
      "rowFilter: turfRowFilter('site'),",
      "const allowed = permittedCategories(user, def.permission ?? def.type, 'read');",
      `sql\`${$}{sql.ref(\`${$}{site}.in_region_ids\`)} && array(${$}{turfRegionIds(user)})\``,
      `exists (select 1 from region_users ru where ru.region_id = r.id and ru.user_id = ${$}{user.id})`,
      `if (def.ownerColumn && user) query = query.where(\`t.${$}{def.ownerColumn}\`, "=", user.id);`,
      "select record_id from record_holders where record_type = 'site' and user_id = $1",
    ];
    for (const line of old)
      expect(
        PATTERNS.some(({ pattern }) => pattern.test(line)),
        line,
      ).toBe(true);
  });
});
