import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { hashPassword } from '../auth/passwords.js';
import type { Config } from '../config/config.js';
import type { DB } from '../db/schema.generated.js';
import { releaseUsShapes } from '../regions/us-atlas.js';
import { loadSchemaFiles, SCHEMAS_DIR } from '../schemas/schema-loader.js';
import { seedDemo } from './demo.js';
import { writeDemoHistory } from './demo-history.js';
import {
  BUILDING_TYPES,
  CLASSIFICATION_TYPES,
  CONTACT_STATUSES,
  CONTRACTOR_TYPES,
  DISPATCH_TYPES,
  FEATURES,
  SITE_PHASES,
  SITE_STATUSES,
  SITE_TYPES,
  slugify,
  TRADES,
  UNIONS,
} from './reference-data.js';
import { seededRoles } from './roles.js';

export interface SeedResult {
  seeded: boolean;
  admin?: { email: string; password: string | null };
}

/** Seeds a new database once: roles, reference data, features, the first administrator and (unless SEED_DEMO=0) the demo. */
export async function seedDatabase(db: Kysely<DB>, config: Config): Promise<SeedResult> {
  // The default record types (schemas/*.json): idempotent (new built-in fields are added), and skipped when the
  // files are the ones loaded last time.
  const filesHash = schemaFilesHash();
  const loaded = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', 'schema_files_hash')
    .executeTakeFirst();
  if (loaded?.value !== filesHash) {
    await loadSchemaFiles(db);
    await sql`insert into app_settings (key, value) values ('schema_files_hash', ${JSON.stringify(filesHash)}::jsonb)
      on conflict (key) do update set value = excluded.value`.execute(db);
  }
  const done = await db.selectFrom('app_settings').select('value').where('key', '=', 'seeded_at').executeTakeFirst();
  if (done) return { seeded: false };

  const generated = config.admin.password ? null : randomBytes(9).toString('base64url');
  const adminPassword = config.admin.password ?? generated!;
  const passwordHash = await hashPassword(adminPassword);

  await db.transaction().execute(async (trx) => {
    const roles = seededRoles();
    await trx
      .insertInto('roles')
      .values(
        roles.map((r) => ({ ...r, permissions: JSON.stringify(r.permissions), policy: JSON.stringify(r.policy) })),
      )
      .execute();
    await trx
      .insertInto('features')
      .values(FEATURES.map((f) => ({ ...f, enabled: true })))
      .execute();

    const named = (names: string[]) => names.map((name, position) => ({ name, slug: slugify(name), position }));
    const pairs = (list: Array<[string, string]>) => list.map(([slug, name], position) => ({ slug, name, position }));
    await trx.insertInto('site_types').values(pairs(SITE_TYPES)).execute();
    await trx.insertInto('contact_statuses').values(pairs(CONTACT_STATUSES)).execute();
    await trx.insertInto('contractor_types').values(pairs(CONTRACTOR_TYPES)).execute();
    await trx.insertInto('site_statuses').values(named(SITE_STATUSES)).execute();
    await trx.insertInto('site_phases').values(named(SITE_PHASES)).execute();
    await trx.insertInto('building_types').values(named(BUILDING_TYPES)).execute();
    await trx.insertInto('trades').values(named(TRADES)).execute();
    await trx.insertInto('unions').values(named(UNIONS)).execute();
    await trx.insertInto('dispatch_types').values(named(DISPATCH_TYPES)).execute();
    for (const [typeName, classes] of Object.entries(CLASSIFICATION_TYPES)) {
      const type = await trx
        .insertInto('classification_types')
        .values({ name: typeName, slug: slugify(typeName) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('classifications')
        .values(
          classes.map((name, position) => ({ name, slug: slugify(name), position, classification_type_id: type.id })),
        )
        .execute();
    }

    const superRole = await trx.selectFrom('roles').select('id').where('slug', '=', 'super').executeTakeFirstOrThrow();
    const [first, ...rest] = config.admin.email.split('@')[0].split(/[._-]/);
    await trx
      .insertInto('users')
      .values({
        first_name: capitalise(first || 'Admin'),
        last_name: rest.length ? capitalise(rest.join(' ')) : 'Administrator',
        email: config.admin.email.toLowerCase(),
        password: passwordHash,
        role_id: superRole.id,
        realtime_key: randomBytes(16).toString('hex'),
      })
      .execute();

    if (config.seedDemo) {
      await seedDemo(trx, passwordHash);
      // Its last weeks of work need the app's services: written by seedDemoHistory once the app is built.
      await trx
        .insertInto('app_settings')
        .values({ key: 'demo_history_pending', value: JSON.stringify(true) })
        .execute();
    }
    await trx
      .insertInto('app_settings')
      .values({ key: 'seeded_at', value: JSON.stringify(new Date().toISOString()) })
      .execute();
  });
  return { seeded: true, admin: { email: config.admin.email, password: generated } };
}

/**
 * The demo organisation's last four weeks of work (demo-history.ts), written through the built app's services: once,
 * after the start that seeded the demo (the marker is taken first, so a failure leaves the demo without it rather
 * than writing it twice).
 */
export async function seedDemoHistory(ctx: AppContext): Promise<boolean> {
  const pending = await ctx.db
    .deleteFrom('app_settings')
    .where('key', '=', 'demo_history_pending')
    .returning('key')
    .executeTakeFirst();
  if (!pending) return false;
  await writeDemoHistory(ctx);
  releaseUsShapes();
  return true;
}

/** The secret that signs realtime channel auth when PUSHER_APP_SECRET/APP_KEY are not set: made once, kept in the database. */
export async function ensureAppKey(db: Kysely<DB>): Promise<string> {
  const kept = await db.selectFrom('app_settings').select('value').where('key', '=', 'app_key').executeTakeFirst();
  if (kept) return kept.value as string;
  const fresh = randomBytes(32).toString('hex');
  await sql`insert into app_settings (key, value) values ('app_key', ${JSON.stringify(fresh)}::jsonb) on conflict (key) do nothing`.execute(
    db,
  );
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', 'app_key')
    .executeTakeFirstOrThrow();
  return row.value as string;
}

/** The names and contents of schemas/*.json, hashed. */
function schemaFilesHash(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(SCHEMAS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(path.join(SCHEMAS_DIR, name)))
      .update('\0');
  }
  return hash.digest('hex');
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
