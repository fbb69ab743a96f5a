/**
 * A role's default view of a record type (a view whose `default_role_ids` holds the role, set by those who manage
 * roles: docs/views.md): a list opened without `view` in its URL opens in it, the URL then naming it. `?view=none`
 * is the whole list. When several views are a role's default of one type, the newest is.
 */
import { useEffect } from 'react';
import { useGetList } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../app/hooks';
import type { SavedView } from './useSavedView';

/** Whether the list is still finding out whether it opens in a default view (it waits, not to be read twice). */
export function useDefaultView(recordType: string | undefined): boolean {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const roleId = user?.role_id ?? null;
  const wanted = Boolean(recordType) && roleId !== null && !new URLSearchParams(search).has('view');
  const { data, isPending, isError } = useGetList<SavedView>(
    'views',
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'id', order: 'DESC' },
      filter: { record_type: recordType },
    },
    { enabled: wanted },
  );
  const found = wanted ? data?.find((view) => roleId !== null && view.default_role_ids?.includes(roleId)) : undefined;
  useEffect(() => {
    if (!found) return;
    const params = new URLSearchParams(search);
    params.set('view', String(found.id));
    void navigate({ pathname, search: `?${params}` }, { replace: true });
  }, [found, search, pathname, navigate]);
  return wanted && ((isPending && !isError) || Boolean(found));
}
