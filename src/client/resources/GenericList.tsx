/**
 * Generic list for resources without a dedicated screen yet: the first columns of the record type's schema
 * when there is one (so an empty list still has a title and an empty state), react-admin's guesser otherwise.
 */
import { Datagrid, FunctionField, List, ListGuesser, TextField, useResourceContext } from 'react-admin';
import { useMainData } from '../app/hooks';
import { resourceForType } from './names';
import type { SchemaField } from '../system/types';

const HIDDEN_TYPES = new Set(['textarea', 'note', 'attachment', 'addresses', 'color']);
const MAX_COLUMNS = 5;

function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(display).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    const named = value as { name?: unknown; label?: unknown; title?: unknown };
    return String(named.name ?? named.label ?? named.title ?? '');
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

export default function GenericList() {
  const resource = useResourceContext();
  const { schemas } = useMainData();
  const schema = schemas.find((candidate) => resourceForType(candidate.type) === resource);
  if (!schema) return <ListGuesser />;
  const columns = (schema.fields ?? []).filter((field: SchemaField) => !HIDDEN_TYPES.has(String(field.type))).slice(0, MAX_COLUMNS);
  return (
    <List>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" label="ID" />
        {columns.map((field) => (
          <FunctionField key={field.slug} source={field.slug} label={field.name} render={(record: Record<string, unknown>) => display(record[field.slug])} />
        ))}
      </Datagrid>
    </List>
  );
}
