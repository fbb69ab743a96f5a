import { type Kysely, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordService } from '../records/record-service.js';
import { customTypeDefinition } from './custom-types.js';
import { reviseSchema } from './schema-revisions.js';
import { type SchemaRow, schemaChanged } from './schemas-resource.js';

/**
 * What deleting a record type made in the app would touch, worked out before (GET /api/schemas/{id}/impact, the
 * schema editor's confirmation) and checked when it is deleted: its records (live ones block it; those in the trash
 * would have no screen left to be restored from, so they are deleted for good with it, and the editor offers to
 * restore them first), the fields of other types that point at it, its importers and the roles holding its
 * permissions (removed with it).
 */
export interface TypeImpact {
  records: { live: number; trashed: number };
  relations: Array<{ schema_id: number; schema: string; field_id: number; field: string }>;
  importers: Array<{ id: number; name: string }>;
  roles: Array<{ id: number; name: string }>;
  /** Why it cannot be deleted yet. */
  blocking: string[];
  summary: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export async function typeImpact(db: Kysely<DB>, schema: SchemaRow): Promise<TypeImpact> {
  const counts = await db
    .selectFrom('custom_records')
    .select([
      sql<number>`count(*) filter (where deleted_at is null)::int`.as('live'),
      sql<number>`count(*) filter (where deleted_at is not null)::int`.as('trashed'),
    ])
    .where('schema_id', '=', schema.id)
    .executeTakeFirst();
  const records = { live: Number(counts?.live ?? 0), trashed: Number(counts?.trashed ?? 0) };
  const relations = await db
    .selectFrom('schema_fields as f')
    .innerJoin('schemas as s', 's.id', 'f.schema_id')
    .select(['s.id as schema_id', 's.name_plural as schema', 'f.id as field_id', 'f.name as field'])
    .where('f.type', '=', 'relation')
    .where(sql<boolean>`f.options ->> 'target' = ${schema.type}`)
    .where('f.schema_id', '!=', schema.id)
    .orderBy('s.position')
    .orderBy('f.position')
    .execute();
  const importers = await db
    .selectFrom('importers')
    .select(['id', 'name'])
    .where('record_type', '=', schema.type)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const roles = (
    await db
      .selectFrom('roles')
      .select(['id', 'name', 'permissions'])
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute()
  )
    .filter((role) =>
      ((role.permissions as string[]) ?? []).some((permission) => permission.startsWith(`${schema.type}:`)),
    )
    .map(({ id, name }) => ({ id, name }));
  const name = schema.name_plural;
  const blocking: string[] = [];
  if (records.live) blocking.push(`${name} still has ${plural(records.live, 'record')}: delete them first.`);
  if (relations.length)
    blocking.push(
      `${relations.map((r) => `${r.schema}: ${r.field}`).join(', ')} point${relations.length === 1 ? 's' : ''} at ${name}: change or delete ${relations.length === 1 ? 'that field' : 'those fields'} first.`,
    );
  if (importers.length)
    blocking.push(
      `${plural(importers.length, 'importer')} import${importers.length === 1 ? 's' : ''} ${name} (${importers.map((i) => i.name).join(', ')}): delete ${importers.length === 1 ? 'it' : 'them'} first.`,
    );
  const summary = [...blocking];
  if (records.trashed)
    summary.push(
      `${plural(records.trashed, 'record')} of ${name} ${records.trashed === 1 ? 'is' : 'are'} in the trash: ${records.trashed === 1 ? 'it is' : 'they are'} deleted for good with the type (restore ${records.trashed === 1 ? 'it' : 'them'} first to keep ${records.trashed === 1 ? 'it' : 'them'}).`,
    );
  if (!blocking.length)
    summary.push(
      `${name} has no records left${records.trashed ? ' outside the trash' : ''}: its fields and logic are deleted with it.`,
    );
  if (roles.length)
    summary.push(
      `Its permissions are taken from ${plural(roles.length, 'role')} (${roles.map((r) => r.name).join(', ')}).`,
    );
  return { records, relations, importers, roles, blocking, summary };
}

/** Deletes the records of the type in the trash for good; returns how many. */
export async function purgeTrash(trx: Kysely<DB>, schema: SchemaRow): Promise<number> {
  const result = await trx
    .deleteFrom('custom_records')
    .where('schema_id', '=', schema.id)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/**
 * Deletes for good the type's records in the trash (POST /api/schemas/{id}/purge-trash), with a revision of the schema
 * saying how many, and clears every process's record types; returns how many.
 */
export async function purgeTypeTrash(records: RecordService, user: AuthUser, schema: SchemaRow): Promise<number> {
  const purged = await records.db.transaction().execute(async (trx) => {
    const count = await purgeTrash(trx, schema);
    await reviseSchema(records, trx, schema.id, user, { 'records:trash': [count, 0] });
    return count;
  });
  await schemaChanged(records, schema.id);
  return purged;
}

/** Brings back every record of the type in the trash, one by one through the write path (a revision each). */
export async function restoreTrash(
  records: RecordService,
  user: Parameters<RecordService['restore']>[0],
  schema: SchemaRow,
): Promise<number> {
  const def = customTypeDefinition(schema);
  const ids = await records.db
    .selectFrom('custom_records')
    .select('id')
    .where('schema_id', '=', schema.id)
    .where('deleted_at', 'is not', null)
    .orderBy('id')
    .execute();
  for (const { id } of ids) await records.restore(user, def, id);
  return ids.length;
}

const TYPE_ACTIONS = ['create', 'read', 'update', 'delete', 'restore'];

/**
 * A record type's permissions on the roles: a new type `vehicle` gives `vehicle:create|read|update|delete|restore` to
 * every role that may create schemas; a deleted type's permissions leave every role, so a new type of that name
 * starts with none.
 */
export async function setTypePermissions(records: RecordService, type: string, change: 'grant' | 'revoke') {
  const { rolesResource } = await import('../roles/roles-resource.js');
  const roles = await records.db
    .selectFrom('roles')
    .select(['id', 'permissions'])
    .where('deleted_at', 'is', null)
    .execute();
  for (const role of roles) {
    const held = (role.permissions as string[]) ?? [];
    if (change === 'grant' && !held.includes('schema:create')) continue;
    const next =
      change === 'grant'
        ? [...new Set([...held, ...TYPE_ACTIONS.map((action) => `${type}:${action}`)])]
        : held.filter((permission) => !permission.startsWith(`${type}:`));
    if (next.length !== held.length)
      await records.update(null, rolesResource, role.id, { permissions: next }, { system: true });
  }
}
