/**
 * A list the server refuses says so once, in the list's place: no "no records" text, no count kept from an earlier
 * answer, no second notice. Other failures keep react-admin's notice.
 */
import Alert from '@mui/material/Alert';
import { Pagination, useListContext, useNotify, type PaginationProps } from 'react-admin';

const refused = (error: unknown) => (error as { status?: number } | null)?.status === 403;

export function ListRefused({ plural }: { plural: string }) {
  const { error } = useListContext();
  if (!error) return null;
  const message = (error as Error).message;
  return (
    <Alert severity={refused(error) ? 'warning' : 'error'} sx={{ m: 2 }} data-testid="list-refused">
      {refused(error) ? `You cannot see ${plural.toLowerCase()}: ${message}` : message}
    </Alert>
  );
}

/** The pagination, left out while the list has no answer to count. */
export function ListPagination(props: PaginationProps) {
  const { error } = useListContext();
  return error ? null : <Pagination {...props} />;
}

/** The list query's failure notice, except for a refusal (ListRefused shows it). */
export function useListErrorNotice() {
  const notify = useNotify();
  return (error: unknown) => {
    if (!refused(error)) notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
  };
}
