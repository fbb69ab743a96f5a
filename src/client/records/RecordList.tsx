/**
 * The generated list of a record type: server pagination ('Displaying 1 to 25 of 400'), sort by any column
 * (a click on its header), a filter for every field (Add filter) and a text search, all kept in the URL, columns
 * the person can show or hide, bulk delete, and for sites and contractors one tab per permitted category.
 */
import { useMemo, type ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import {
  ColumnsButton,
  CreateButton,
  DataTable,
  FilterButton,
  List,
  SearchInput,
  SimpleList,
  Title,
  TopToolbar,
  useCanAccess,
  useCanAccessResources,
  useListContext,
  useStore,
  } from 'react-admin';
import { CATEGORY_PERMISSIONS } from '../../common/permissions';
import { ExportButton } from '../exports/ExportButton';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { defaultColumns, fieldTypeUI, FieldDisplay, type FieldDescriptor } from './fieldTypes';
import { useCategoryAccess, useDescriptors } from './hooks';
import { BulkDeleteRecordsButton } from './BulkDeleteRecordsButton';
import { recordLabel, type RecordSchema } from './schema';
import { MissingSchema, useRecordScreen } from './ui';
import { ListPagination, ListRefused, useListErrorNotice } from './ListRefused';

export const PER_PAGE_CHOICES = [10, 25, 50, 100];

/** The fields a person may see in lists (relations to what they may not read are left out). */
export function useVisibleDescriptors(schema: RecordSchema | undefined): FieldDescriptor[] {
  const descriptors = useDescriptors(schema);
  const referenced = useMemo(() => [...new Set(descriptors.flatMap((descriptor) => (descriptor.reference ? [descriptor.reference.resource] : [])))], [descriptors]);
  const { canAccess: reads } = useCanAccessResources({ action: 'read', resources: referenced });
  return useMemo(() => descriptors.filter((descriptor) => !descriptor.reference || reads?.[descriptor.reference.resource]), [descriptors, reads]);
}

function categoryLabel(category: string) {
  return TYPE_LABELS[category] ?? titleCase(category.replace(/-/g, ' '));
}

/** "Union Sites" when the list is filtered to one category. */
function ListHeading({ schema }: { schema: RecordSchema }) {
  const { filterValues } = useListContext();
  const plural = titleCase(schema.name_plural);
  const category = typeof filterValues?.type === 'string' && CATEGORY_PERMISSIONS[schema.type] ? filterValues.type : null;
  const title = category ? `${categoryLabel(category)} ${plural}` : plural;
  useDocumentTitle(title);
  return <Title title={title} />;
}

/** One tab per permitted category (sites, contractors), plus All for those who read every category. */
function CategoryTabs({ schema }: { schema: RecordSchema }) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const categories = CATEGORY_PERMISSIONS[schema.type];
  const allowed = useCategoryAccess(schema.resource, 'show', categories ?? []);
  if (!categories) return null;
  const tabs = categories.filter((category) => allowed === 'all' || allowed.includes(category));
  const current = typeof filterValues?.type === 'string' ? filterValues.type : 'all';
  const value = current === 'all' || tabs.includes(current) ? current : false;
  return (
    <Tabs
      value={allowed !== 'all' && current === 'all' ? false : value}
      onChange={(_event, next: string) => {
        const { type: _type, ...rest } = filterValues ?? {};
        setFilters(next === 'all' ? rest : { ...rest, type: next }, displayedFilters);
      }}
      variant="scrollable"
      scrollButtons="auto"
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 1, minHeight: 40, '& .MuiTab-root': { minHeight: 40 } }}
      aria-label={`${schema.name_plural} by category`}
    >
      {allowed === 'all' && <Tab value="all" label="All" />}
      {tabs.map((category) => (
        <Tab key={category} value={category} label={categoryLabel(category)} data-testid={`category-${category}`} />
      ))}
    </Tabs>
  );
}

/** The columns the list shows now (the column chooser keeps the hidden ones in the store), for the CSV export. */
function useShownColumns(resource: string, descriptors: FieldDescriptor[]): string[] {
  const defaults = useMemo(() => new Set(defaultColumns(descriptors)), [descriptors]);
  const [hidden] = useStore<string[]>(`${resource}.datatable`, descriptors.map((d) => d.slug).filter((slug) => !defaults.has(slug)));
  return descriptors.map((descriptor) => descriptor.slug).filter((slug) => !hidden.includes(slug));
}

function ListActions({ schema, filters, descriptors }: { schema: RecordSchema; filters: ReactElement[]; descriptors: FieldDescriptor[] }) {
  const { filterValues } = useListContext();
  const shownColumns = useShownColumns(schema.resource, descriptors);
  const { canAccess: mayRestore } = useCanAccess({ resource: schema.resource, action: 'restore' });
  const { canAccess: canExport } = useCanAccess({ resource: 'exports', action: 'create' });
  const canRestore = mayRestore && schema.restorable;
  const category = CATEGORY_PERMISSIONS[schema.type] && typeof filterValues?.type === 'string' ? filterValues.type : null;
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <TopToolbar>
      <FilterButton filters={filters} />
      {!small && <ColumnsButton />}
      {canRestore && (
        <Button component={RouterLink} to={`/${schema.resource}/deleted`} size="small" startIcon={<RestoreFromTrashIcon />}>
          Deleted
        </Button>
      )}
      {canExport && <ExportButton columns={shownColumns} />}
      <CreateButton to={category ? `/${schema.resource}/create?source=${encodeURIComponent(JSON.stringify({ type: category }))}` : undefined} />
    </TopToolbar>
  );
}

export function listFilters(descriptors: FieldDescriptor[]): ReactElement[] {
  const seen = new Set<string>();
  const elements: ReactElement[] = [<SearchInput source="q" alwaysOn key="q" placeholder="Search" />];
  for (const descriptor of descriptors) {
    for (const element of fieldTypeUI(descriptor.type).Filters(descriptor)) {
      const source = (element.props as { source: string }).source;
      if (seen.has(source)) continue;
      seen.add(source);
      elements.push(element);
    }
  }
  return elements;
}

export function RecordListBody({ schema, descriptors, canDelete }: { schema: RecordSchema; descriptors: FieldDescriptor[]; canDelete: boolean }) {
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const columns = useMemo(() => descriptors.map((descriptor) => fieldTypeUI(descriptor.type).Column(descriptor)), [descriptors]);
  const shown = useMemo(() => new Set(defaultColumns(descriptors)), [descriptors]);
  const hiddenColumns = columns.filter((column) => !shown.has(column.source)).map((column) => column.source);
  if (small) {
    const second = descriptors.find((descriptor) => shown.has(descriptor.slug) && descriptor.slug !== 'name' && descriptor.slug !== 'first_name' && descriptor.slug !== 'title');
    return <SimpleList primaryText={(record) => recordLabel(record)} secondaryText={second ? () => <FieldDisplay descriptor={second} variant="list" /> : undefined} linkType="show" />;
  }
  return (
    <DataTable rowClick="show" hiddenColumns={hiddenColumns} bulkActionButtons={canDelete ? <BulkDeleteRecordsButton schema={schema} /> : false} sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}>
      {columns.map((column) => (
        <DataTable.Col key={column.source} source={column.source} label={column.label} disableSort={column.disableSort}>
          <FieldDisplay descriptor={column.descriptor} variant="list" />
        </DataTable.Col>
      ))}
    </DataTable>
  );
}

export default function RecordList({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const descriptors = useVisibleDescriptors(schema);
  const filters = useMemo(() => listFilters(descriptors), [descriptors]);
  const { canAccess: canDelete = false } = useCanAccess({ resource, action: 'delete' });
  const onError = useListErrorNotice();
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  return (
    <List
      resource={resource}
      title={false}
      filters={filters}
      actions={<ListActions schema={schema} filters={filters} descriptors={descriptors} />}
      perPage={25}
      sort={{ field: '', order: 'ASC' }}
      pagination={<ListPagination rowsPerPageOptions={PER_PAGE_CHOICES} />}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      empty={false}
      error={<ListRefused plural={schema.name_plural || resource} />}
      queryOptions={{ onError }}
    >
      <ListHeading schema={schema} />
      <Box sx={{ px: 1, pt: 0.5 }}>
        <CategoryTabs schema={schema} />
      </Box>
      <RecordListBody schema={schema} descriptors={descriptors} canDelete={canDelete} />
    </List>
  );
}
