/** React glue for the generated screens: the live schema of a resource, the signed-in person's rights, the data provider. */
import { useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import { canOnCategory, canOnEntity, can, type Action } from '../../common/permissions';
import { useMainData, useSession } from '../app/hooks';
import type { AppDataProvider } from '../providers/dataProvider';
import { schemaForResource, schemaForType, type RecordSchema } from './schema';
import { describeField, type FieldDescriptor } from './fieldTypes/describe';

/** The schema of a resource as loaded now: renames and new fields show at once (they reload on schema events). */
export function useLiveSchema(resource: string): RecordSchema | undefined {
  const { schemas } = useMainData();
  return useMemo(() => schemaForResource(schemas, resource), [schemas, resource]);
}

export function useSchemaByType(type: string): RecordSchema | undefined {
  const { schemas } = useMainData();
  return useMemo(() => schemaForType(schemas, type), [schemas, type]);
}

export function useDescriptors(schema: RecordSchema | undefined): FieldDescriptor[] {
  return useMemo(() => (schema ? schema.fields.map(describeField) : []), [schema]);
}

export function useUser() {
  return useSession().user;
}

/** May the person do `action` on records of `entity` (any category counts)? */
export function useCan(entity: string, action: Action, category?: string | null): boolean {
  const user = useUser();
  if (category !== undefined) return canOnCategory(user, entity, action, category);
  return canOnEntity(user, entity, action);
}

export function useHasPermission(permission: string): boolean {
  return can(useUser(), permission);
}

export function useAppDataProvider(): AppDataProvider {
  return useDataProvider() as unknown as AppDataProvider;
}
