/**
 * "Share" for an open view its owner may share (view:share): the roles and teams it is shared with, ticked as they are
 * (sharing.tsx says which the person may tick), and for one who manages roles whose default view it is. Saving
 * writes only the sharing (`role_ids`, `team_ids`, `default_role_ids`); the server checks it again.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNotify, useUpdate } from 'react-admin';
import { isApiError } from '../http/errors';
import { ShareChoices, useShareTargets } from './sharing';
import type { SavedView } from './useSavedView';

/** Of what the view holds, what this person may still tick (the rest they could not send again). */
const within = (ids: number[] | undefined, offered: Array<{ id: number }>) =>
  (ids ?? []).filter((id) => offered.some((choice) => choice.id === id));

export function ShareViewDialog({ view, onClose }: { view: SavedView; onClose: () => void }) {
  const targets = useShareTargets();
  const [roles, setRoles] = useState<number[] | null>(null);
  const [teams, setTeams] = useState<number[] | null>(null);
  const [defaults, setDefaults] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  // Until the person ticks, the view's own sharing (the lists of roles and teams may still be on their way).
  const chosenRoles = roles ?? within(view.role_ids, targets.roles);
  const chosenTeams = teams ?? within(view.team_ids, targets.teams);
  const chosenDefaults = defaults ?? within(view.default_role_ids, targets.allRoles);

  const save = () =>
    update(
      'views',
      {
        id: view.id,
        data: {
          role_ids: chosenRoles,
          team_ids: chosenTeams,
          ...(targets.manager ? { default_role_ids: chosenDefaults } : {}),
        },
        previousData: view,
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          const count = chosenRoles.length + chosenTeams.length;
          notify(
            count
              ? `The view "${view.name}" is shared with ${count} role${count === 1 ? '' : 's'} and team${count === 1 ? '' : 's'}.`
              : `The view "${view.name}" is yours alone.`,
            { type: 'info' },
          );
          onClose();
        },
        onError: (failure) => {
          const fieldMessages = isApiError(failure) ? Object.values(failure.body?.errors ?? {}).flat() : [];
          setError(
            String(fieldMessages[0] ?? (failure instanceof Error ? failure.message : 'The view could not be shared.')),
          );
        },
      },
    );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="share-view-title">
      <DialogTitle id="share-view-title">Share "{view.name}"</DialogTitle>
      <DialogContent>
        {error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        {!targets.roles.length && !targets.teams.length && (
          <Typography variant="body2">There is no role or team you may share this view with.</Typography>
        )}
        <ShareChoices
          legend="Roles"
          choices={targets.roles}
          chosen={chosenRoles}
          onChange={setRoles}
          labelOf={(role) => (role.id === targets.myRoleId ? `${role.name} (my role)` : role.name)}
        />
        <ShareChoices
          legend="Teams"
          choices={targets.teams}
          chosen={chosenTeams}
          onChange={setTeams}
          labelOf={(team) => (targets.myTeamIds.includes(team.id) ? `${team.name} (my team)` : team.name)}
        />
        {targets.manager && (
          <ShareChoices
            legend="Default view"
            choices={targets.allRoles}
            chosen={chosenDefaults}
            onChange={setDefaults}
            labelOf={(role) => `Default for ${role.name}`}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={isPending || !targets.ready}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
