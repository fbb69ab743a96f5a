import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import { schemaFieldsResource } from './schema-fields-resource.js';
import { schemasResource } from './schemas-resource.js';

/**
 * POST /api/schemas/{id}/reorder: the record type to `position` among the types, or its fields in the order of
 * `field_ids` (the others after them, as they were). Each move is an update through the record service (permission,
 * revision, event); rows already in place are not written. Returns the schema as it is now.
 */
export async function reorderSchema(
  records: RecordService,
  user: AuthUser | null,
  id: number,
  order: { position?: number; field_ids?: number[] },
  socketId?: string,
) {
  const schema = await records.show(user, schemasResource, id);
  if (order.field_ids) {
    const wanted = order.field_ids;
    const ids: number[] = schema.fields.map((f: { id: number }) => f.id);
    const unknown = wanted.filter((fieldId) => !ids.includes(fieldId));
    if (unknown.length) throw fieldError('field_ids', `Not fields of ${schema.name_singular}: ${unknown.join(', ')}.`);
    const fields = [...new Set(wanted), ...ids.filter((fieldId) => !wanted.includes(fieldId))];
    for (const [position, fieldId] of fields.entries()) {
      const field = schema.fields.find((f: { id: number }) => f.id === fieldId);
      if (field.position !== position)
        await records.update(user, schemaFieldsResource, fieldId, { position }, { socketId });
    }
  } else {
    const all = await records.db
      .selectFrom('schemas')
      .select(['id', 'position'])
      .orderBy('position')
      .orderBy('id')
      .execute();
    const types = all.filter((s) => s.id !== schema.id);
    types.splice(Math.min(order.position ?? 0, types.length), 0, { id: schema.id, position: schema.position });
    for (const [position, row] of types.entries()) {
      if (row.position !== position) await records.update(user, schemasResource, row.id, { position }, { socketId });
    }
  }
  return { schema: await records.show(user, schemasResource, id), name: schema.name_singular as string };
}
