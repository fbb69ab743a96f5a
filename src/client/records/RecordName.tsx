/**
 * A record named by its representation (recordLabel: name, title, or first and last name) wherever only its type and
 * id are at hand: the owner of a task, a history entry. The lookups of a page are batched into one getMany per
 * resource (react-admin's useGetManyAggregate). Only a record the person may not read, or one that is gone, falls
 * back to its type and id.
 */
import { useCanAccess, useGetManyAggregate } from 'react-admin';
import { useMainData } from '../app/hooks';
import { titleCase } from '../i18n/labels';
import { resourceForType } from '../resources/names';
import { recordLabel } from './label';

export function useRecordName(type: string, id: number | string): { label: string; found: boolean; resource: string } {
  const { schemas } = useMainData();
  const resource = resourceForType(type);
  const { canAccess } = useCanAccess({ resource, action: 'read' });
  const { data } = useGetManyAggregate(
    resource,
    { ids: [id] },
    { enabled: Boolean(canAccess) && id !== undefined && id !== null },
  );
  const record = data?.find((item) => String(item.id) === String(id));
  if (record) return { label: recordLabel(record), found: true, resource };
  const schema = schemas.find((candidate) => candidate.type === type);
  return { label: `${schema ? titleCase(schema.name_singular) : type} #${id}`, found: false, resource };
}

export function RecordName({ type, id }: { type: string; id: number | string }) {
  return <>{useRecordName(type, id).label}</>;
}
