/**
 * The generated list of a record type: server pagination ('Displaying 1 to 25 of 400'), sort by any column
 * (a click on its header), the filter builder (conditions joined by all or any) and a text search, all kept in the URL, columns
 * the person can show or hide, bulk edit and bulk delete, and for sites and contractors one tab per permitted category.
 */

import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrashOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useEventCallback } from '@mui/material/utils';
import { memo, type ReactElement, useMemo } from 'react';
import {
  CreateButton,
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
import { FilterBuilderButton } from '../views/FilterBuilder';
import { GroupedList } from '../views/GroupedList';
import { useListGrouping } from '../views/grouping';
import { LayoutView } from '../views/layouts/LayoutView';
import { useListLayout } from '../views/layouts/useLayout';
import { SortButton } from '../views/SortButton';
import { useDefaultView } from '../views/useDefaultView';
import { useSavedView } from '../views/useSavedView';
import { ViewColumnsProvider } from '../views/useViewColumns';
import { ViewBar } from '../views/ViewBar';
import { BulkDeleteRecordsButton } from './BulkDeleteRecordsButton';
import { BulkEditButton } from './bulkEdit/BulkEditButton';
import { defaultColumns, type FieldDescriptor, FieldDisplay } from './fieldTypes';
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
  descriptors,
  viewId,
}: {
  schema: RecordSchema;
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
    // Wraps rather than running off the screen: a person type's list has eight actions, more than 390 px hold.
    <TopToolbar sx={{ flexWrap: 'wrap', rowGap: 0.5, justifyContent: { xs: 'flex-start', md: 'flex-end' } }}>
      <FilterBuilderButton descriptors={descriptors} kept={keptFilters(schema)} />
      <SortButton descriptors={descriptors} />
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

/** The list's one filter input of its own: the search. Every other filter is the filter builder's (views/FilterBuilder). */
const SEARCH_FILTER: ReactElement[] = [<SearchInput source="q" alwaysOn key="q" placeholder="Search" />];

/** Filter values the builder leaves to other controls: the search, and the category tabs' `type`. */
const SEARCH_ONLY: ReadonlySet<string> = new Set(['q']);
const SEARCH_AND_CATEGORY: ReadonlySet<string> = new Set(['q', 'type']);
const keptFilters = (schema: RecordSchema) => (CATEGORY_PERMISSIONS[schema.type] ? SEARCH_AND_CATEGORY : SEARCH_ONLY);

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
  const { canAccess: canDelete = false } = useCanAccess({ resource, action: 'delete' });
  const { canAccess: canEdit = false } = useCanAccess({ resource, action: 'edit' });
  const onError = useListErrorNotice();
  // `?view=<id>`: a saved view's filters and sort, applied by the server (docs/views.md).
  const { id: viewId, view, error: viewError } = useSavedView();
  // Until its view is read the list cannot know whether it is a table, a group or a board: it reads nothing yet.
  const viewKnown = viewId === null || view !== undefined || Boolean(viewError);
  const fields = useMemo(() => new Set(descriptors.map((descriptor) => descriptor.slug)), [descriptors]);
  const layout = useListLayout(view, descriptors);
  const grouping = useListGrouping(view, descriptors);
  // Grouped, the list's rows are each group's own (views/GroupedList.tsx): the list itself reads none.
  const grouped = !layout && grouping !== null;
  const findingDefaultView = useDefaultView(schema?.type);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  if (findingDefaultView) return <LinearProgress aria-label="Opening the list" />;
  const body = <RecordListBody schema={schema} descriptors={descriptors} canDelete={canDelete} canEdit={canEdit} />;
  return (
    <ViewColumnsProvider view={view} resource={resource} descriptors={descriptors}>
      <List
        resource={resource}
        title={false}
        filters={SEARCH_FILTER}
        actions={<ListActions schema={schema} descriptors={descriptors} viewId={viewId} />}
        perPage={25}
        sort={{ field: '', order: 'ASC' }}
        // A board pages each of its columns itself.
        pagination={layout || grouped ? false : <SmallScreenPagination />}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
        empty={false}
        error={<ListRefused plural={schema.name_plural || resource} />}
        // Past 10,000 matches the total may be the server's estimate: the footer then says "about".
        // Grouped or in a layout (a board, a calendar...), the list reads no rows: each group and layout reads its own.
        queryOptions={{
          onError,
          enabled: viewKnown && !grouped && !layout,
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
          descriptors={descriptors}
        />
        <Box sx={{ px: 1, pt: 0.5 }}>
          <CategoryTabs schema={schema} />
        </Box>
        {layout ? (
          <LayoutView layout={layout} schema={schema} descriptors={descriptors} viewId={viewId} />
        ) : grouping ? (
          <GroupedList schema={schema} descriptors={descriptors} field={grouping} viewId={viewId} rows={body} />
        ) : (
          body
        )}
      </List>
    </ViewColumnsProvider>
  );
}
