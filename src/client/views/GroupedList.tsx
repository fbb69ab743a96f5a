/**
 * A list grouped by a field (grouping.ts): one section per value, from the server's groups (GET
 * /api/records/{resource}/groups with the list's filters, view and search), each headed by its value, its count and
 * the sums of the number fields. A section is a button that opens and closes it (Enter or Space); an open section
 * loads its own rows, paged, as the list's rows with the group's value added to its filters (the grid at 1280 px, the
 * card list on a phone). MIT's data grid has no row grouping of its own.
 */
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { ListBase, useGetMany, useListContext } from 'react-admin';
import { type ListGroups, listQuery } from '../providers/dataProvider';
import { type FieldDescriptor, formatNumber } from '../records/fieldTypes';
import { choiceLabel } from '../records/fieldTypes/format';
import { SmallScreenPagination } from '../records/grid/smallScreen';
import { useAppDataProvider } from '../records/hooks';
import { recordLabel } from '../records/label';
import type { RecordSchema } from '../records/schema';

type GroupValue = ListGroups['data'][number]['value'];

/** The group's value added to the list's filters (`filter[field]=value`, or `field_null` for the rows without one). */
export function groupFilter(field: string, value: GroupValue): Record<string, unknown> {
  return value === null ? { [`${field}_null`]: true } : { [field]: value };
}

/** How each group's value reads: a choice's label, a related record's name, Yes or No, "No <field>". */
function useGroupLabels(field: FieldDescriptor, groups: ListGroups['data'] | undefined) {
  const reference = field.reference?.value === 'id' && !field.choices.length ? field.reference : null;
  const ids = reference ? (groups ?? []).flatMap((group) => (group.value === null ? [] : [group.value as number])) : [];
  const { data: related } = useGetMany(reference?.resource ?? 'users', { ids }, { enabled: ids.length > 0 });
  const names = new Map((related ?? []).map((record) => [String(record.id), recordLabel(record)]));
  return (value: GroupValue): string => {
    if (value === null) return `No ${field.label.toLowerCase()}`;
    if (field.type === 'boolean') return value ? 'Yes' : 'No';
    if (reference) return names.get(String(value)) || `#${String(value)}`;
    return choiceLabel(field, value);
  };
}

/**
 * "Estimated value: $2,000,000" for each number field the person sees that counts something: one that may go below
 * zero measures (a latitude) and adds up to nothing meaningful.
 */
function sumsText(sums: Record<string, number>, descriptors: FieldDescriptor[]): string {
  return descriptors
    .filter((descriptor) => descriptor.slug in sums && !(descriptor.min !== undefined && descriptor.min < 0))
    .map((descriptor) => `${descriptor.label}: ${formatNumber(sums[descriptor.slug], descriptor.number)}`)
    .join(' · ');
}

interface GroupedListProps {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  field: FieldDescriptor;
  viewId: number | null;
  /** The rows of an open group (RecordList's body: the grid, or the card list on a phone). */
  rows: ReactNode;
}

export function GroupedList({ schema, descriptors, field, viewId, rows }: GroupedListProps) {
  const { filterValues, sort } = useListContext();
  const dataProvider = useAppDataProvider();
  const viewQuery = useMemo(() => (viewId ? { view: viewId } : {}), [viewId]);
  const query = useMemo(
    () => ({ ...listQuery({ filter: filterValues, meta: { query: viewQuery } }), group_by: field.slug }),
    [filterValues, viewQuery, field.slug],
  );
  const { data, error, isPending } = useQuery({
    queryKey: [schema.resource, 'groups', query],
    queryFn: ({ signal }) => dataProvider.listGroups(schema.resource, query, signal),
  });
  const labelOf = useGroupLabels(field, data?.data);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  if (error) return <Alert severity="error">{error.message || 'The groups could not be read.'}</Alert>;
  if (isPending || !data) return <LinearProgress aria-label="Loading the groups" />;
  const plural = schema.name_plural || schema.resource;
  const totals = sumsText(data.meta.sums, descriptors);
  return (
    <Box data-testid="grouped-list" sx={{ px: 1, pb: 1 }}>
      <Typography variant="body2" color="text.secondary" sx={{ px: 1, py: 0.5 }}>
        {data.meta.total} {plural} in {data.data.length} group{data.data.length === 1 ? '' : 's'} by{' '}
        {field.label.toLowerCase()}
        {totals ? ` · ${totals}` : ''}
      </Typography>
      {data.data.map((group) => {
        const key = String(group.value);
        return (
          <GroupSection
            key={key}
            label={labelOf(group.value)}
            count={group.count}
            sums={sumsText(group.sums, descriptors)}
            open={open.has(key)}
            onToggle={() => toggle(key)}
          >
            <ListBase
              resource={schema.resource}
              filter={{ ...filterValues, ...groupFilter(field.slug, group.value) }}
              sort={sort}
              perPage={25}
              disableSyncWithLocation
              storeKey={false}
              queryOptions={{ meta: { query: viewQuery } }}
            >
              {rows}
              <SmallScreenPagination />
            </ListBase>
          </GroupSection>
        );
      })}
    </Box>
  );
}

function GroupSection({
  label,
  count,
  sums,
  open,
  onToggle,
  children,
}: {
  label: string;
  count: number;
  sums: string;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Box component="section" data-testid="list-group" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Button
        id={`${id}-header`}
        onClick={onToggle}
        aria-expanded={open}
        aria-controls={`${id}-rows`}
        fullWidth
        color="inherit"
        startIcon={open ? <ExpandMoreIcon /> : <ChevronRightIcon />}
        sx={{ justifyContent: 'flex-start', textTransform: 'none', textAlign: 'left', py: 1, flexWrap: 'wrap' }}
      >
        <Box component="span" sx={{ fontWeight: 600, mr: 1 }}>
          {label}
        </Box>
        <Box component="span" sx={{ color: 'text.secondary', mr: 1 }} data-testid="group-count">
          {count}
        </Box>
        {sums && (
          <Box component="span" sx={{ color: 'text.secondary', typography: 'body2' }} data-testid="group-sums">
            {sums}
          </Box>
        )}
      </Button>
      {open && (
        <Box id={`${id}-rows`} role="region" aria-labelledby={`${id}-header`}>
          {children}
        </Box>
      )}
    </Box>
  );
}
