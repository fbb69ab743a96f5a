/** What one revision changed: a small before/after table, with names for related records. */
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { RecordContextProvider, useCanAccess, useGetMany } from 'react-admin';
import { FieldDisplay } from '../fieldTypes';
import type { FieldDescriptor } from '../fieldTypes/describe';
import { recordLabel } from '../schema';
import { historyText, type Revision } from './history';

function RelationText({ descriptor, value }: { descriptor: FieldDescriptor; value: unknown }) {
  const ids = (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value])
    .map(Number)
    .filter(Number.isFinite);
  const { data = [] } = useGetMany(descriptor.reference!.resource, { ids }, { enabled: ids.length > 0 });
  if (!ids.length) return <>—</>;
  return <>{ids.map((id) => recordLabel(data.find((record) => Number(record.id) === id)) || `#${id}`).join(', ')}</>;
}

/** Structured values shown as their field shows them, rather than as text (a head count's contractors and counts). */
const SHOWN_AS_FIELD = new Set(['head-count']);

function Value({ descriptor, value }: { descriptor?: FieldDescriptor; value: unknown }) {
  const reference = descriptor?.reference;
  const { canAccess: readable } = useCanAccess({
    resource: reference?.resource ?? 'schemas',
    action: 'read',
    enabled: reference?.value === 'id',
  });
  if (reference?.value === 'id' && readable) return <RelationText descriptor={descriptor!} value={value} />;
  if (descriptor && SHOWN_AS_FIELD.has(descriptor.type)) {
    return (
      <RecordContextProvider value={{ id: 'revision', [descriptor.slug]: value }}>
        <FieldDisplay descriptor={descriptor} variant="show" />
      </RecordContextProvider>
    );
  }
  return <>{historyText(value, descriptor)}</>;
}

export function RevisionChanges({
  revision,
  descriptors,
}: {
  revision: Revision;
  descriptors: Map<string, FieldDescriptor>;
}) {
  const entries = Object.entries(revision.changes ?? {}).filter(([, change]) => Array.isArray(change));
  if (!entries.length) return null;
  return (
    <Table size="small" sx={{ '& td, & th': { px: 1, py: 0.5, verticalAlign: 'top' }, maxWidth: 900 }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '28%' }}>Field</TableCell>
          <TableCell sx={{ width: '36%' }}>Before</TableCell>
          <TableCell>After</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map(([field, [before, after]]) => {
          const descriptor = descriptors.get(field);
          return (
            <TableRow key={field} data-change={field}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {descriptor?.label ?? field.replace(/_/g, ' ')}
                </Typography>
              </TableCell>
              <TableCell sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                <Value descriptor={descriptor} value={before} />
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Value descriptor={descriptor} value={after} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
