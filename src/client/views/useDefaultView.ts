/**
 * The view a person's list of a record type opens in, as the server keeps it (GET /api/views/default, docs/views.md
 * "Default views"): the view they chose themselves, else their role's default view of the type (one per role and type,
 * set by those who manage roles). A list opened without `view` in its URL opens in it, the URL then naming it;
 * `?view=none` is the whole list.
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { AppDataProvider } from '../providers/dataProvider';
import { useAppDataProvider } from '../records/hooks';

const queryKey = (recordType: string | undefined) => ['views', 'default', recordType] as const;

const defaultViewQuery = (dataProvider: AppDataProvider, recordType: string | undefined) => ({
  queryKey: queryKey(recordType),
  queryFn: ({ signal }: { signal: AbortSignal }) => dataProvider.defaultView(recordType!, signal),
});

/** The server's answer for this type (the view and whose choice it is). */
export function useDefaultViewQuery(recordType: string | undefined, enabled = true) {
  const dataProvider = useAppDataProvider();
  return useQuery({ ...defaultViewQuery(dataProvider, recordType), enabled: enabled && Boolean(recordType) });
}

/** Asks for it before the list is drawn (records/prefetchList.ts); the list then finds it kept. */
export function prefetchDefaultView(client: QueryClient, dataProvider: AppDataProvider, recordType: string) {
  return client.prefetchQuery(defaultViewQuery(dataProvider, recordType));
}

/** Makes a view the person's own default of its type (null: their role's again); the answer replaces the kept one. */
export function useChooseDefaultView(recordType: string) {
  const dataProvider = useAppDataProvider();
  const client = useQueryClient();
  // A read of the old answer still on its way (the realtime catch-up asks again once the channels listen) would land
  // over the new one, and the choice would seem undone: such reads are called off before the answer is kept.
  const callOffReads = () => client.cancelQueries({ queryKey: queryKey(recordType) });
  return useMutation({
    mutationFn: (viewId: number | null) => dataProvider.chooseDefaultView(recordType, viewId),
    onMutate: callOffReads,
    onSuccess: async (answer) => {
      await callOffReads();
      client.setQueryData(queryKey(recordType), answer);
    },
  });
}

/** Whether the list is still finding out whether it opens in a default view (it waits, not to be read twice). */
export function useDefaultView(recordType: string | undefined): boolean {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const wanted = Boolean(recordType) && !new URLSearchParams(search).has('view');
  const { data, isPending, isError } = useDefaultViewQuery(recordType, wanted);
  const found = wanted ? data?.view : undefined;
  useEffect(() => {
    if (!found) return;
    const params = new URLSearchParams(search);
    params.set('view', String(found.id));
    void navigate({ pathname, search: `?${params}` }, { replace: true });
  }, [found, search, pathname, navigate]);
  return wanted && ((isPending && !isError) || Boolean(found));
}
