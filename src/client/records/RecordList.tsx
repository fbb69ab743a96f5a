/**
 * The generated list of a record type: server pagination ('Displaying 1 to 25 of 400'), sort by any column
 * (a click on its header), a filter for every field (Add filter) and a text search, all kept in the URL, columns
 * the person can show or hide, bulk edit and bulk delete, and for sites and contractors one tab per permitted category.
 */

import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useEventCallback } from '@mui/material/utils';
import { memo, type ReactElement, useMemo } from 'react';
import {
  CreateButton,
  FilterButton,
  List,
  SearchInput,
  SimpleList,
  Title,
  TopToolbar,
  useCanAccess,
  useListContext,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { CATEGORY_PERMISSIONS } from '../../common/permissions';
import { MakeCallListButton } from '../callLists/MakeCallListButton';
import { isPersonType } from '../conversations/shared';
import { ExportButton } from '../exports/ExportButton';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { SendMessageButton } from '../messages/SendMessageButton';
import { KanbanBoard } from '../views/layouts/KanbanBoard';
import { useListLayout } from '../views/layouts/useLayout';
import { useSavedView } from '../views/useSavedView';
import { ViewBar } from '../views/ViewBar';
import { BulkDeleteRecordsButton } from './BulkDeleteRecordsButton';
import { BulkEditButton } from './bulkEdit/BulkEditButton';
import { defaultColumns, type FieldDescriptor, FieldDisplay, fieldTypeUI } from './fieldTypes';
import { shownColumns, useGridPreferences } from './grid/preferences';
import RecordGrid from './grid/RecordGrid';
import { ResetColumnsButton } from './grid/ResetColumnsButton';
import { SmallScreenPagination, useSmallScreen } from './grid/smallScreen';
import { useCategoryAccess, useVisibleDescriptors } from './hooks';
import { ListRefused, useListErrorNotice } from './ListRefused';
import { OutsideTurfNote } from './OutsideTurfNote';
import { type RecordSchema, recordLabel } from './schema';
import { MissingSchema, useRecordScreen } from './ui';

function categoryLabel(category: string) {
  return TYPE_LABELS[category] ?? titleCase(category.replace(/-/g, ' '));
}

/** "Union Sites" when the list is filtered to one category. */
function ListHeading({ schema }: { schema: RecordSchema }) {
  const { filterValues } = useListContext();
  const plural = titleCase(schema.name_plural);
  const category =
    typeof filterValues?.type === 'string' && CATEGORY_PERMISSIONS[schema.type] ? filterValues.type : null;
  const title = category ? `${categoryLabel(category)} ${plural}` : plural;
  useDocumentTitle(title);
  return <Title title={title} />;
}

/** One tab per permitted category (sites, contractors), plus All for those who read every category. */
function CategoryTabs({ schema }: { schema: RecordSchema }) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const categories = CATEGORY_PERMISSIONS[schema.type];
  const allowed = useCategoryAccess(schema.resource, 'show', categories ?? []);
  const onChange = useEventCallback((_event: unknown, next: string) => {
    const { type: _type, ...rest } = filterValues ?? {};
    setFilters(next === 'all' ? rest : { ...rest, type: next }, displayedFilters);
  });
  const tabsKey = categories
    ? categories.filter((category) => allowed === 'all' || allowed.includes(category)).join('\n')
    : '';
  if (!categories) return null;
  const tabs = tabsKey ? tabsKey.split('\n') : [];
  const current = typeof filterValues?.type === 'string' ? filterValues.type : 'all';
  const value = current === 'all' || tabs.includes(current) ? current : false;
  return (
    <CategoryTabsView
      value={allowed !== 'all' && current === 'all' ? false : value}
      tabsKey={tabsKey}
      all={allowed === 'all'}
      onChange={onChange}
      label={`${schema.name_plural} by category`}
    />
  );
}

/**
 * The tabs themselves, rendered again only when what they show changes: the list's context changes a few times at
 * each page change, and Material's tabs measure their indicator at each render.
 */
const CategoryTabsView = memo(function CategoryTabsView({
  value,
  tabsKey,
  all,
  onChange,
  label,
}: {
  value: string | false;
  tabsKey: string;
  all: boolean;
  onChange: (event: unknown, next: string) => void;
  label: string;
}) {
  return (
    <Tabs
      value={value}
      onChange={onChange}
      variant="scrollable"
      scrollButtons="auto"
      sx={{ borderBottom: 1, borderColor: 'divider', mb: 1, minHeight: 40, '& .MuiTab-root': { minHeight: 40 } }}
      aria-label={label}
    >
      {all && <Tab value="all" label="All" />}
      {(tabsKey ? tabsKey.split('\n') : []).map((category) => (
        <Tab key={category} value={category} label={categoryLabel(category)} data-testid={`category-${category}`} />
      ))}
    </Tabs>
  );
});

/** The columns the grid shows now (the person's column choice), for the CSV export. */
function useShownColumns(resource: string, descriptors: FieldDescriptor[]): string[] {
  const [preferences] = useGridPreferences(resource);
  return useMemo(
    () =>
      shownColumns(
        descriptors.map((descriptor) => descriptor.slug),
        defaultColumns(descriptors),
        preferences,
      ),
    [descriptors, preferences],
  );
}

function ListActions({
  schema,
  filters,
  descriptors,
  viewId,
}: {
  schema: RecordSchema;
  filters: ReactElement[];
  descriptors: FieldDescriptor[];
  viewId: number | null;
}) {
  const { filterValues } = useListContext();
  const shownColumns = useShownColumns(schema.resource, descriptors);
  const { canAccess: mayRestore } = useCanAccess({ resource: schema.resource, action: 'restore' });
  const { canAccess: canExport } = useCanAccess({ resource: 'exports', action: 'create' });
  const canRestore = mayRestore && schema.restorable;
  const category =
    CATEGORY_PERMISSIONS[schema.type] && typeof filterValues?.type === 'string' ? filterValues.type : null;
  return (
    <TopToolbar>
      <FilterButton filters={filters} />
      <ResetColumnsButton resource={schema.resource} />
      {canRestore && (
        <Button
          component={RouterLink}
          to={`/${schema.resource}/deleted`}
          size="small"
          startIcon={<RestoreFromTrashIcon />}
        >
          Deleted
        </Button>
      )}
      {canExport && <ExportButton columns={shownColumns} view={viewId} />}
      {canExport && <ExportButton columns={shownColumns} view={viewId} format="xlsx" />}
      {isPersonType(schema.type) && <MakeCallListButton personType={schema.type} />}
      {isPersonType(schema.type) && <SendMessageButton personType={schema.type} />}
      <CreateButton
        to={
          category
            ? `/${schema.resource}/create?source=${encodeURIComponent(JSON.stringify({ type: category }))}`
            : undefined
        }
      />
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

export function RecordListBody({
  schema,
  descriptors,
  canDelete,
  canEdit = false,
}: {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  canDelete: boolean;
  canEdit?: boolean;
}) {
  const small = useSmallScreen();
  const shown = useMemo(() => new Set(defaultColumns(descriptors)), [descriptors]);
  if (small) {
    const second = descriptors.find(
      (descriptor) =>
        shown.has(descriptor.slug) &&
        descriptor.slug !== 'name' &&
        descriptor.slug !== 'first_name' &&
        descriptor.slug !== 'title',
    );
    return (
      <SimpleList
        primaryText={(record) => (
          <>
            {recordLabel(record)}
            <OutsideTurfNote record={record} />
          </>
        )}
        secondaryText={second ? () => <FieldDisplay descriptor={second} variant="list" /> : undefined}
        linkType="show"
      />
    );
  }
  return (
    <RecordGrid
      schema={schema}
      descriptors={descriptors}
      bulkActionButtons={
        canEdit || canDelete ? (
          <>
            {canEdit && <BulkEditButton schema={schema} descriptors={descriptors} />}
            {canDelete && <BulkDeleteRecordsButton schema={schema} />}
          </>
        ) : undefined
      }
    />
  );
}

export default function RecordList({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const descriptors = useVisibleDescriptors(schema);
  const filters = useMemo(() => listFilters(descriptors), [descriptors]);
  const { canAccess: canDelete = false } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: canEdit = false } = useCanAccess({ resource, action: 'edit' });
  const onError = useListErrorNotice();
  // `?view=<id>`: a saved view's filters and sort, applied by the server (docs/views.md).
  const { id: viewId, view } = useSavedView();
  const fields = useMemo(() => new Set(descriptors.map((descriptor) => descriptor.slug)), [descriptors]);
  const layout = useListLayout(view, descriptors);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  return (
    <List
      resource={resource}
      title={false}
      filters={filters}
      actions={<ListActions schema={schema} filters={filters} descriptors={descriptors} viewId={viewId} />}
      perPage={25}
      sort={{ field: '', order: 'ASC' }}
      // A board pages each of its columns itself.
      pagination={layout ? false : <SmallScreenPagination />}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
      empty={false}
      error={<ListRefused plural={schema.name_plural || resource} />}
      // Past 10,000 matches the total may be the server's estimate: the footer then says "about".
      queryOptions={{
        onError,
        meta: { query: viewId ? { total: 'estimate', view: viewId } : { total: 'estimate' } },
      }}
    >
      <ListHeading schema={schema} />
      <ViewBar
        resource={resource}
        recordType={schema.type}
        plural={schema.name_plural || resource}
        fields={fields}
        view={view}
      />
      <Box sx={{ px: 1, pt: 0.5 }}>
        <CategoryTabs schema={schema} />
      </Box>
      {layout?.kind === 'kanban' ? (
        <KanbanBoard resource={resource} field={layout.field} viewId={viewId} plural={schema.name_plural || resource} />
      ) : (
        <RecordListBody schema={schema} descriptors={descriptors} canDelete={canDelete} canEdit={canEdit} />
      )}
    </List>
  );
}
