import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Routes call services and hold no SQL (docs/architecture.md): every file of src/server that declares a route (named
 * `routes.ts`, `*-routes.ts` or `*-route.ts`, or calling app.get/post/put/patch/delete/route with a path) is read, and
 * none may build or run a query itself.
 */
const SERVER = path.resolve(import.meta.dirname, '../../src/server');

const ROUTE_FILE_NAME = /(^|-)routes?\.ts$/;
/** `app.get('/api/...'`, `.post(\n '/api/...'`, `app.route({`. */
const DECLARES_ROUTE = /\.(get|post|put|patch|delete)\(\s*['"`]\/|\.route\(\s*\{/;
/** What running SQL looks like with Kysely: a raw sql`...`, a query builder, or running one. */
const SQL = [
  /\bsql`/,
  /\bsql\.(raw|ref|table|join|lit)\(/,
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/,
  /\.execute(TakeFirst|TakeFirstOrThrow)?\(/,
  /import\s*\{[^}]*\bsql\b[^}]*\}\s*from\s*'kysely'/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const declaresRoutes = (file: string, text: string) =>
  ROUTE_FILE_NAME.test(path.basename(file)) || DECLARES_ROUTE.test(text);

/** The SQL a route file holds, as `line: text` ([] when none). */
function sqlIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (SQL.some((pattern) => pattern.test(line)) ? [`${i + 1}: ${line.trim()}`] : []));
}

describe('route files', () => {
  const routeFiles = sourceFiles(SERVER)
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .filter(({ file, text }) => declaresRoutes(file, text));

  it('are found (every feature folder with routes)', () => {
    const names = routeFiles.map(({ file }) => path.relative(SERVER, file));
    expect(names.length).toBeGreaterThan(20);
    for (const expected of ['auth/routes.ts', 'records/routes.ts', 'schemas/custom-types.ts', 'system/metrics.ts'])
      expect(names).toContain(expected);
  });

  it('hold no SQL: they call services', () => {
    const offending = routeFiles.flatMap(({ file, text }) =>
      sqlIn(text).map((line) => `${path.relative(SERVER, file)}:${line}`),
    );
    expect(offending).toEqual([]);
  });

  it('would see a query in a route file', () => {
    const route = `app.get('/api/x', opts, async () => db.selectFrom('users').selectAll().execute());`;
    expect(declaresRoutes('x/x-routes.ts', route)).toBe(true);
    expect(declaresRoutes('x/helper.ts', 'export const a = 1;')).toBe(false);
    expect(sqlIn(route)).toHaveLength(1);
    expect(sqlIn('  await sql`select 1`.execute(ctx.db);')).toHaveLength(1);
    expect(sqlIn("import { sql } from 'kysely';")).toHaveLength(1);
    expect(sqlIn("import type { Kysely } from 'kysely';")).toEqual([]);
  });
});
