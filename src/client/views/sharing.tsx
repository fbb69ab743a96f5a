/**
 * Whom a view is shared with (docs/views.md "Who reads and changes a view"): the roles and teams a person may tick, as
 * the server allows them. view:share shares with one's own role and own teams; one who manages roles (role:update) with
 * any role and any team they see, and sets roles' default views. A team the person cannot read is never offered (the
 * server refuses it too).
 */
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useGetList, useGetMany } from 'react-admin';
import { can } from '../../common/permissions';
import { useSession } from '../app/hooks';

export interface Choice {
  id: number;
  name: string;
}

const byName = { field: 'name', order: 'ASC' as const };

/** The roles and teams this person may share a view with, and whether they set roles' default views. */
export function useShareTargets() {
  const { user } = useSession();
  const mayShare = can(user, 'view:share') && user?.role_id != null;
  const manager = mayShare && can(user, 'role:update');
  const readsTeams = mayShare && can(user, 'team:read');
  const { data: allRoles = [], isPending: rolesPending } = useGetList<Choice>(
    'roles',
    { pagination: { page: 1, perPage: 100 }, sort: byName },
    { enabled: manager },
  );
  const { data: allTeams = [], isPending: teamsPending } = useGetList<Choice>(
    'teams',
    { pagination: { page: 1, perPage: 200 }, sort: byName },
    { enabled: manager && readsTeams },
  );
  const ownTeamIds = [...new Set([...(user?.team_ids ?? []), ...(user?.team_id ? [user.team_id] : [])])];
  const { data: ownTeams = [], isPending: ownTeamsPending } = useGetMany<Choice>(
    'teams',
    { ids: ownTeamIds },
    { enabled: !manager && readsTeams && ownTeamIds.length > 0 },
  );
  const roles: Choice[] = manager
    ? allRoles
    : mayShare && user?.role
      ? [{ id: user.role.id, name: user.role.name }]
      : [];
  const teams: Choice[] = !readsTeams ? [] : manager ? allTeams : ownTeams.filter(Boolean);
  // A list not asked for is pending for good: only those asked for are waited for.
  const ready = !(
    (manager && rolesPending) ||
    (manager && readsTeams && teamsPending) ||
    (!manager && readsTeams && ownTeamIds.length > 0 && ownTeamsPending)
  );
  return { mayShare, manager, ready, roles, allRoles, teams, myRoleId: user?.role_id ?? null, myTeamIds: ownTeamIds };
}

/** A fieldset of roles or teams to tick (whom a view is shared with, whose default view it is). */
export function ShareChoices({
  legend,
  choices,
  chosen,
  onChange,
  labelOf = (choice) => choice.name,
}: {
  legend: string;
  choices: Choice[];
  chosen: number[];
  onChange: (next: number[]) => void;
  labelOf?: (choice: Choice) => string;
}) {
  if (!choices.length) return null;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
      <Box component="legend" sx={{ typography: 'body2', color: 'text.secondary' }}>
        {legend}
      </Box>
      {choices.map((choice) => (
        <FormControlLabel
          key={choice.id}
          control={
            <Checkbox
              checked={chosen.includes(choice.id)}
              onChange={(event) =>
                onChange(event.target.checked ? [...chosen, choice.id] : chosen.filter((other) => other !== choice.id))
              }
            />
          }
          label={labelOf(choice)}
        />
      ))}
    </Box>
  );
}
