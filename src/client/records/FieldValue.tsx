/**
 * One field's value of a record shown away from the record's own pages (the map's card): the field type's display
 * from the one field-type table, with the field as the resource's live schema describes it. A field the schema
 * does not know shows its value as text.
 */
import { type RaRecord, RecordContextProvider } from 'react-admin';
import { FieldDisplay } from './fieldTypes';
import type { DisplayVariant } from './fieldTypes/displays';
import { useDescriptors, useLiveSchema } from './hooks';

export function FieldValue({
  resource,
  field,
  record,
  variant = 'list',
}: {
  resource: string;
  field: string;
  record: Partial<RaRecord>;
  variant?: DisplayVariant;
}) {
  const descriptor = useDescriptors(useLiveSchema(resource)).find((candidate) => candidate.slug === field);
  if (!descriptor) return <span>{String(record[field] ?? '')}</span>;
  return (
    <RecordContextProvider value={record as RaRecord}>
      <FieldDisplay descriptor={descriptor} variant={variant} />
    </RecordContextProvider>
  );
}
