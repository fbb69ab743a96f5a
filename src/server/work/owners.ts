import { type Kysely, type RawBuilder, sql } from 'kysely';
import { CATEGORY_PERMISSIONS, can, canOnCategory, permittedCategories } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import { TURF_TYPES, turfCondition } from '../regions/turf.js';
import { builtinDefinition } from '../schemas/builtin-types.js';

/**
 * Notes, tasks and documents belong to a record (`{x}_type` = its record type, `{x}_id` = its id). A person sees
 * them only when they may read that record: its type (`site:read`, `vehicle:read`), and for category types
 * (`site:read:union`) the record's category, and for a person limited to a turf, whether the record is in it (sites,
 * their contractors and contacts). Rows without an owner are visible to all who may read the resource.
 */
export function readableOwners(user: AuthUser, typeColumn: string, idColumn: string): RawBuilder<boolean> {
  const type = sql.ref(`t.${typeColumn}`);
  const id = sql.ref(`t.${idColumn}`);
  const readable = new Set(
    user.permissions.filter((p) => /^[a-z0-9-]+:read$/.test(p)).map((p) => p.slice(0, -':read'.length)),
  );
  const parts: RawBuilder<boolean>[] = [sql<boolean>`${type} is null`];
  const ruled: RawBuilder<boolean>[] = [];
  for (const entity of new Set([...Object.keys(CATEGORY_PERMISSIONS), ...TURF_TYPES])) {
    const allowed = CATEGORY_PERMISSIONS[entity]
      ? permittedCategories(user, entity, 'read')
      : readable.has(entity)
        ? 'all'
        : [];
    const turf = turfCondition(user, entity, id);
    if (allowed !== 'all' && !allowed.length) continue;
    if (allowed === 'all' && !turf) continue;
    readable.delete(entity);
    const def = builtinDefinition(entity);
    const conditions = [...(turf ? [turf] : [])];
    if (allowed !== 'all' && def?.categoryColumn) {
      conditions.push(
        sql<boolean>`exists (select 1 from ${sql.table(def.table)} owner where owner.id = ${id} and owner.${sql.ref(def.categoryColumn)} in (${sql.join(allowed)}))`,
      );
    }
    if (conditions.length) ruled.push(sql<boolean>`(${type} = ${entity} and ${sql.join(conditions, sql` and `)})`);
  }
  if (readable.size) parts.push(sql<boolean>`${type} in (${sql.join([...readable])})`);
  return sql<boolean>`(${sql.join([...parts, ...ruled], sql` or `)})`;
}

/** The table of a record type's rows (built-in resource, or `custom_records` for a type created in the app). */
export async function ownerTable(
  db: Kysely<any>,
  type: string,
): Promise<{ table: string; schemaId?: number; categoryColumn?: string } | null> {
  const def = builtinDefinition(type);
  if (def) return { table: def.table, categoryColumn: def.categoryColumn };
  const schema = await db.selectFrom('schemas').select(['id', 'built_in']).where('type', '=', type).executeTakeFirst();
  return schema && !schema.built_in ? { table: 'custom_records', schemaId: schema.id } : null;
}

/**
 * A note, task or document may only be attached to a record that exists and that the person may read.
 * `typeField`/`idField` name the fields in error messages. Both absent: no owner, fine.
 */
export async function assertOwnerReadable(
  db: Kysely<any>,
  user: AuthUser | null,
  type: unknown,
  id: unknown,
  typeField: string,
  idField: string,
) {
  if ((type === null || type === undefined) && (id === null || id === undefined)) return;
  if (typeof type !== 'string' || !type)
    throw fieldError(
      typeField,
      `The ${typeField.replace(/_/g, ' ')} is required with the ${idField.replace(/_/g, ' ')}.`,
    );
  if (!Number.isInteger(id) || (id as number) < 1)
    throw fieldError(
      idField,
      `The ${idField.replace(/_/g, ' ')} is required with the ${typeField.replace(/_/g, ' ')}.`,
    );
  const owner = await ownerTable(db, type);
  if (!owner) throw fieldError(typeField, `There is no record type "${type}".`);
  let query = db
    .selectFrom(owner.table)
    .selectAll()
    .where('id', '=', id as number);
  if (owner.schemaId) query = query.where('schema_id', '=', owner.schemaId);
  const row = await query.executeTakeFirst();
  const inTurf = async () => {
    const turf = user && turfCondition(user, type, sql.lit(id as number));
    return (
      !turf ||
      Boolean(
        await db
          .selectNoFrom(sql<boolean>`${turf}`.as('inside'))
          .executeTakeFirst()
          .then((r) => r?.inside),
      )
    );
  };
  const permitted =
    user === null ||
    ((owner.categoryColumn
      ? canOnCategory(user, type, 'read', row?.[owner.categoryColumn])
      : can(user, `${type}:read`)) &&
      (await inTurf()));
  if (!row || row.deleted_at || !permitted)
    throw fieldError(idField, `No ${type.replace(/-/g, ' ')} has the id ${id as number}, or you may not read it.`);
}
