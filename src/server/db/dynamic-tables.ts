import type { Kysely } from 'kysely';
import type { DB, Json, JsonObject } from './schema.generated.js';

/**
 * The one door past the generated types (schema.generated.ts), for what only exists at run time: a table named by a
 * resource or record type (`resource.table`, a type made in the schema editor), and the fields a row keeps in its
 * `custom` JSONB. Everything else reads and writes through `Kysely<DB>`, where a wrong column name fails `tsc`.
 */
export type DynamicRow = Record<string, unknown>;
export type DynamicTables = Record<string, DynamicRow>;
/** A row of a record type's table as read back: every record table has an integer `id`; its other columns are the type's. */
export type StoredRecord = { id: number } & DynamicRow;

/** `db` (or a transaction) for a table whose name is known only at run time; its columns are checked by the caller. */
export function dynamicTables(db: Kysely<DB>): Kysely<DynamicTables> {
  return db as unknown as Kysely<DynamicTables>;
}

/** A JSONB value that holds an object (a revision's changes, a job's payload); null when it holds anything else. */
export function jsonObject(value: Json | null | undefined): JsonObject | null {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

/** A row's `custom` JSONB as the field-keyed object it always holds ({} when null). */
export function customFields(value: Json | null | undefined): JsonObject {
  return jsonObject(value) ?? {};
}

/**
 * A JSONB column the server wrote in a shape of its own (an import's files and checkpoint, an export's columns), read
 * back as that shape: the generated types know only that it is JSON.
 */
export function storedJson<T>(value: Json | null | undefined): T {
  return value as T;
}
