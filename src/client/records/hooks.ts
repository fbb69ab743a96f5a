/** React glue for the generated screens: the live schema of a resource, category access, the data provider. */
import { useEffect, useMemo, useState } from 'react';
import { useCanAccess, useCanAccessCallback, useCanAccessResources, useDataProvider } from 'react-admin';
import { useMainData } from '../app/hooks';
import type { AppDataProvider } from '../providers/dataProvider';
import { describeField, type FieldDescriptor } from './fieldTypes/describe';
import { type RecordSchema, schemaForResource, schemaForType } from './schema';

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

/** The fields a person may see in lists (relations to what they may not read are left out). */
export function useVisibleDescriptors(schema: RecordSchema | undefined): FieldDescriptor[] {
  const descriptors = useDescriptors(schema);
  const referenced = useMemo(
    () => [
      ...new Set(descriptors.flatMap((descriptor) => (descriptor.reference ? [descriptor.reference.resource] : []))),
    ],
    [descriptors],
  );
  const { canAccess: reads } = useCanAccessResources({ action: 'read', resources: referenced });
  return useMemo(
    () => descriptors.filter((descriptor) => !descriptor.reference || reads?.[descriptor.reference.resource]),
    [descriptors, reads],
  );
}

/**
 * Which categories of a resource (site types, contractor types) the person may `action` (react-admin's: show,
 * edit...), asked of authProvider.canAccess with a record of each category: 'all' when they may act on a record of
 * any category (a record with no category passes only the bare permission), else the list; empty until it answers.
 */
export function useCategoryAccess(resource: string, action: string, categories: readonly string[]): 'all' | string[] {
  const { canAccess: all } = useCanAccess({ resource, action, record: { id: `any-${resource}` } });
  const canAccess = useCanAccessCallback();
  const [allowed, setAllowed] = useState<string[]>([]);
  const key = categories.join(',');
  useEffect(() => {
    let live = true;
    void Promise.all(categories.map((type) => canAccess({ resource, action, record: { type } }))).then(
      (answers) => live && setAllowed(categories.filter((_type, index) => answers[index])),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resource, action, key, canAccess]);
  return all ? 'all' : allowed;
}

export function useAppDataProvider(): AppDataProvider {
  return useDataProvider() as unknown as AppDataProvider;
}
