import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import type { FieldSpec } from '../records/resource.js';
import { builtinDefinition } from './builtin-types.js';
import { customTypeDefinition } from './custom-types.js';
import { schemaStore } from './schema-store.js';

/** Every field of a record type now: its built-in fields and the custom ones of its stored schema (null: no such type). */
export async function fieldsOfType(db: Kysely<DB>, type: string): Promise<Record<string, FieldSpec> | null> {
  const snapshot = await schemaStore(db).snapshot(db.isTransaction ? db : undefined);
  const schema = snapshot.byType.get(type);
  const def = builtinDefinition(type) ?? (schema && !schema.built_in ? customTypeDefinition(schema) : undefined);
  if (!def) return null;
  return { ...snapshot.customSpecs(type), ...def.fields };
}
