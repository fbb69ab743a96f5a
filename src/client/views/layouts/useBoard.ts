/**
 * A kanban's first page of every column and their counts in one request (the data provider's getBoard, GET
 * /api/records/{resource}/board), over the list's filters, the saved view and the board's order: one round trip
 * instead of one per column, so the board is drawn as soon as that one answer arrives. Keyed under the resource as
 * react-admin's reads are, so a write's refresh and the realtime updates read it again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Board, listQuery } from '../../providers/dataProvider';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { useAppDataProvider } from '../../records/hooks';
import { columnKey, type KanbanColumn } from './kanbanColumns';

export type BoardLane = Board['data'][number];

export function useBoard(
  resource: string,
  field: FieldDescriptor,
  rank: FieldDescriptor | null,
  columns: readonly KanbanColumn[],
  filter: Record<string, unknown>,
  viewId: number | null,
  perPage: number,
) {
  const dataProvider = useAppDataProvider();
  const values = JSON.stringify(columns.map((column) => column.value));
  const query = useMemo(
    () => ({
      ...listQuery({
        filter,
        sort: rank ? { field: rank.slug, order: 'ASC' } : undefined,
        meta: viewId ? { query: { view: viewId } } : undefined,
      }),
      per_page: perPage,
      by: field.slug,
      columns: values,
    }),
    [filter, rank, viewId, perPage, field.slug, values],
  );
  const client = useQueryClient();
  const options = {
    queryKey: [resource, 'getBoard', query],
    queryFn: ({ signal }: { signal: AbortSignal }) => dataProvider.getBoard(resource, query, signal),
    enabled: columns.length > 0,
  };
  // Asked for while the list renders (as usePrefetchQuery does), not once it has been drawn: useQuery asks from an
  // effect, after the whole list's first render and commit.
  if (options.enabled && !client.getQueryState(options.queryKey)) void client.prefetchQuery(options);
  const { data, error, isPending } = useQuery(options);
  const lanes = useMemo(
    () => new Map((data?.data ?? []).map((lane) => [columnKey(lane.value), lane] as const)),
    [data],
  );
  return { lanes, error, isPending: isPending && columns.length > 0 };
}
