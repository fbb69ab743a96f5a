import type { Kysely } from 'kysely';
import { keptFromOthers } from '../../common/access-rules.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import { builtinDefinition } from '../schemas/builtin-types.js';

/*
 * Notes, tasks and documents belong to a record (`{x}_type` = its record type, `{x}_id` = its id). Who reads them is the
 * access policy's (their default rule: their own, or on a record the person may read; access/compile.ts parentRule).
 */

/** The table of a record type's rows (built-in resource, or `custom_records` for a type created in the app). */
export async function ownerTable(
  db: Kysely<DB>,
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
  records: RecordService,
  db: Kysely<DB>,
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
  // A private record (a notification, an export) or a saved view is its owner's alone: nothing else hangs on it.
  if (keptFromOthers(type))
    throw fieldError(typeField, `Nothing can be attached to a ${type.replace(/-/g, ' ')}: it belongs to one person.`);
  if (!(await records.access.liveAndReadable(db, type, user, id as number)))
    throw fieldError(idField, `No ${type.replace(/-/g, ' ')} has the id ${id as number}, or you may not read it.`);
}
