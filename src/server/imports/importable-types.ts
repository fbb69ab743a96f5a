import type { Kysely } from 'kysely';
import { IMPORT_RECORD_TYPES } from '../../common/import-targets.js';
import type { DB } from '../db/schema.generated.js';
import { schemaStore } from '../schemas/schema-store.js';

/**
 * The record types an importer may fill: the built-in ones the target catalogue knows (sites, contractors, members)
 * and every type made in the schema editor, whose columns go to its fields (`custom.{slug}`, its name included).
 */
export async function importableTypes(db: Kysely<DB>): Promise<string[]> {
  const snapshot = await schemaStore(db).snapshot(db.isTransaction ? db : undefined);
  const made = [...snapshot.byType.values()].filter((schema) => !schema.built_in).map((schema) => schema.type);
  return [...IMPORT_RECORD_TYPES, ...made];
}

/** A type made in the app: it has no catalogue targets, its fields are its targets. */
export const isCatalogueType = (type: string) => (IMPORT_RECORD_TYPES as readonly string[]).includes(type);
