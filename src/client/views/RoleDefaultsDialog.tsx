/**
 * "Role defaults" for one who manages roles on a view someone else owns (its owner has the Share dialog): which of the
 * roles the view is shared with open their list of its type in it (PUT /api/views/role-defaults, docs/views.md
 * "Default views"). Only roles the view is shared with are offered; the server checks that again (422 otherwise).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { isApiError } from '../http/errors';
import { useAppDataProvider } from '../records/hooks';
import { ShareChoices, useShareTargets } from './sharing';
import type { SavedView } from './useSavedView';

/** The first field message of a refusal, else its text. */
const reasonOf = (failure: unknown) => {
  const fieldMessages = isApiError(failure) ? Object.values(failure.body?.errors ?? {}).flat() : [];
  return String(fieldMessages[0] ?? (failure instanceof Error ? failure.message : 'The defaults were not saved.'));
};

export function RoleDefaultsDialog({ view, onClose }: { view: SavedView; onClose: () => void }) {
  const { allRoles, ready } = useShareTargets();
  const dataProvider = useAppDataProvider();
  const client = useQueryClient();
  const notify = useNotify();
  const sharedWith = allRoles.filter((role) => view.role_ids.includes(role.id));
  const [chosen, setChosen] = useState<number[] | null>(null);
  const defaults = chosen ?? (view.default_role_ids ?? []).filter((id) => view.role_ids.includes(id));
  const save = useMutation({
    mutationFn: () => dataProvider.setRoleDefaults(view.id, defaults),
    onSuccess: (answer) => {
      // The open view (react-admin's getOne) and every list's default view are read again.
      void client.invalidateQueries({ queryKey: ['views'] });
      notify(answer.message, { type: 'info' });
      onClose();
    },
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="role-defaults-title">
      <DialogTitle id="role-defaults-title">Role defaults for "{view.name}"</DialogTitle>
      <DialogContent>
        {save.isError && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {reasonOf(save.error)}
          </Alert>
        )}
        <Typography variant="body2">
          People of a role ticked here open their list in this view, unless they chose another one themselves.
        </Typography>
        {ready && !sharedWith.length && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            This view is shared with no role: its owner shares it with a role before it can be that role's default.
          </Typography>
        )}
        <ShareChoices
          legend="Default view of"
          choices={sharedWith}
          chosen={defaults}
          onChange={setChosen}
          labelOf={(role) => `Default for ${role.name}`}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending || !ready}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
