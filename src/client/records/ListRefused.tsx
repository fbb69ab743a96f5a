/**
 * A list the server refuses says so once, in the list's place: no "no records" text, no count kept from an earlier
 * answer, no second notice. Other failures keep react-admin's notice.
 */
import Alert from '@mui/material/Alert';
import { Pagination, type PaginationProps, useListContext, useNotify, useTranslate } from 'react-admin';

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
/** react-admin's pagination; a total the server estimated (meta.total_estimated) reads "of about N". */
export function ListPagination(props: PaginationProps) {
  const { error, meta } = useListContext();
  const translate = useTranslate();
  const about = meta?.total_estimated
    ? {
        labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
          translate('ra.navigation.page_range_info', {
            offsetBegin: from,
            offsetEnd: to,
            total: translate('app.datatable.about', { total: count }),
          }),
      }
    : {};
  return error ? null : <Pagination {...props} {...about} />;
}

/** The list query's failure notice, except for a refusal (ListRefused shows it). */
export function useListErrorNotice() {
  const notify = useNotify();
  return (error: unknown) => {
    if (!refused(error)) notify((error as Error)?.message || 'ra.notification.http_error', { type: 'error' });
  };
}
