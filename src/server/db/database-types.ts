import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, PostgresDialect } from 'kysely-codegen';
import { openDatabase } from './database.js';
import { migrate } from './migrate.js';

/** Where the tables' types, generated from the migrated schema, are kept (committed; never edited by hand). */
export const DATABASE_TYPES_FILE = fileURLToPath(new URL('./schema.generated.ts', import.meta.url));

/** The TypeScript of every table and column of a freshly migrated embedded database, as kysely-codegen writes it. */
export async function freshDatabaseTypes(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'om-types-'));
  const database = await openDatabase({ databaseUrl: '', dataDir });
  try {
    await migrate(database.db);
    return await generate({
      db: database.db,
      dialect: new PostgresDialect(),
      outFile: null,
      print: false,
      excludePattern: 'kysely_migration*',
      typeOnlyImports: true,
      // As the drivers are set to parse them (type-parsers.ts).
      typeMapping: { int8: 'number', numeric: 'number', date: 'string' },
    });
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run db:types`: writes the file after a migration is added.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const types = await freshDatabaseTypes();
  const before = (() => {
    try {
      return readFileSync(DATABASE_TYPES_FILE, 'utf8');
    } catch {
      return '';
    }
  })();
  writeFileSync(DATABASE_TYPES_FILE, types);
  console.log(`${path.relative(process.cwd(), DATABASE_TYPES_FILE)}: ${before === types ? 'unchanged' : 'written'}`);
}
