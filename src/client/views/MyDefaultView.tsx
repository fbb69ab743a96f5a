/**
 * "Open my list in this view" for an open view: the person's own default view of the type, kept by the server over
 * their role's (useDefaultView.ts, PUT /api/views/default). When it is already theirs, the button says so and takes it
 * back (their role's default, or the whole list, again).
 */
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import Button from '@mui/material/Button';
import { useNotify } from 'react-admin';
import { useChooseDefaultView, useDefaultViewQuery } from './useDefaultView';
import type { SavedView } from './useSavedView';

export function MyDefaultView({ view, plural }: { view: SavedView; plural: string }) {
  const { data } = useDefaultViewQuery(view.record_type);
  const choose = useChooseDefaultView(view.record_type);
  const notify = useNotify();
  const mine = data?.source === 'person' && data.view?.id === view.id;
  const change = () =>
    choose.mutate(mine ? null : view.id, {
      onSuccess: () =>
        notify(
          mine
            ? `Your ${plural} list no longer opens in "${view.name}".`
            : `Your ${plural} list now opens in "${view.name}".`,
          { type: 'info' },
        ),
      onError: (failure) =>
        notify(failure instanceof Error ? failure.message : 'That did not work.', { type: 'error' }),
    });
  return (
    <Button
      size="small"
      startIcon={mine ? <StarIcon /> : <StarBorderIcon />}
      aria-pressed={mine}
      onClick={change}
      disabled={!data || choose.isPending}
    >
      {mine ? 'My default view' : 'Open my list in this view'}
    </Button>
  );
}
