/** Reads one schema and writes its names, fields and logic; every change reloads the app's schemas at once. */
import { useCallback } from 'react';
import { useGetOne } from 'react-admin';
import { reloadMainData } from '../app/hooks';
import { type SubmitOutcome, useInvalidateResource, useRecordMutations } from '../records/mutations';
import type { RecordSchema } from '../records/schema';

export function useSchemaRecord(id: string | number | undefined) {
  const result = useGetOne('schemas', { id: id! }, { enabled: id !== undefined });
  return { ...result, data: result.data as RecordSchema | undefined };
}

export function useSchemaWrites() {
  const schemas = useRecordMutations('schemas');
  const fields = useRecordMutations('schema-fields');
  const blocks = useRecordMutations('logic-blocks');
  const invalidate = useInvalidateResource();

  /** Our own changes are not echoed to this tab: reload the schemas the screens and menu are built from. */
  const refresh = useCallback(async () => {
    await Promise.all([reloadMainData('schemas'), invalidate('schemas')]);
  }, [invalidate]);

  const after = useCallback(
    async <T extends SubmitOutcome | boolean | any>(outcome: T): Promise<T> => {
      await refresh();
      return outcome;
    },
    [refresh],
  );

  return {
    refresh,
    createSchema: (data: Record<string, unknown>) => schemas.create(data, 'Schema created successfully.').then(after),
    renameSchema: (schema: RecordSchema, data: Record<string, unknown>) =>
      schemas.update(schema.id, data, schema, 'Schema updated successfully.').then(after),
    deleteSchema: (schema: RecordSchema) => schemas.remove(schema, 'Schema deleted successfully.').then(after),
    reorderFields: (schema: RecordSchema, fieldIds: number[]) =>
      schemas.action(schema.id, 'reorder', { field_ids: fieldIds }).then(after),
    createField: (data: Record<string, unknown>) => fields.create(data, 'Field created successfully.').then(after),
    updateField: (id: number, data: Record<string, unknown>, previous: unknown) =>
      fields.update(id, data, previous, 'Field updated successfully.').then(after),
    deleteField: (field: { id: number }) => fields.remove(field, 'Field deleted successfully.').then(after),
    createBlock: (data: Record<string, unknown>) =>
      blocks.create(data, 'Logic block created successfully.').then(after),
    updateBlock: (id: number, data: Record<string, unknown>, previous: unknown) =>
      blocks.update(id, data, previous, 'Logic block updated successfully.').then(after),
    deleteBlock: (block: { id: number }) => blocks.remove(block, 'Logic block deleted successfully.').then(after),
  };
}
