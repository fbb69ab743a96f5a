/**
 * A record list opened by its address (a bookmark, a reload, a shared link: `/sites?layout=kanban&by=stage`) starts
 * what it would otherwise wait for in turn, as soon as the record types are known: the list screen's code beside the
 * signed-in shell's, and the view the list opens in (GET /api/views/default, unless the address names a view), so
 * the list's own reads (a kanban's board, the grid's page) leave once the shell has drawn, not two round trips later.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { AppDataProvider } from '../providers/dataProvider';
import { typeForResource } from '../resources/names';
import { prefetchDefaultView } from '../views/useDefaultView';
import { preloadRecordList } from './index';

export function prefetchOpenedList(
  location: { pathname: string; search: string },
  recordTypes: ReadonlyArray<{ type: string }>,
  queryClient: QueryClient,
  dataProvider: AppDataProvider,
): void {
  // A list's address is its resource alone (`/sites`); `/sites/12/show` and the others are not lists.
  const match = /^\/([a-z0-9-]+)\/?$/.exec(location.pathname);
  const type = match ? typeForResource(match[1]) : undefined;
  if (!type || !recordTypes.some((recordType) => recordType.type === type)) return;
  void preloadRecordList();
  if (!new URLSearchParams(location.search).has('view')) void prefetchDefaultView(queryClient, dataProvider, type);
}
