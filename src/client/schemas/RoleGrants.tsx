/**
 * Who may use a new record type: one row per role, one checkbox per action. Roles that may create record types get
 * every permission of a new type from the server; the others get what is ticked here (written to the role as an
 * edit of it would be, so who may grant what is checked by the server).
 */
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export const GRANT_ACTIONS = [
  ['read', 'See'],
  ['create', 'Add'],
  ['update', 'Edit'],
  ['delete', 'Delete'],
] as const;

export interface RoleRow {
  id: number;
  name: string;
  permissions: string[];
}

export type Grants = Record<number, string[]>;

/** The roles that receive every permission of a new type anyway. */
export const makesTypes = (role: RoleRow) => role.permissions.includes('schema:create');

/** The role's permissions with the ticked ones of `type` added. */
export function grantedPermissions(role: RoleRow, type: string, actions: readonly string[]): string[] {
  return [...new Set([...role.permissions, ...actions.map((action) => `${type}:${action}`)])];
}

export function RoleGrants({
  roles,
  grants,
  onChange,
}: {
  roles: readonly RoleRow[];
  grants: Grants;
  onChange: (grants: Grants) => void;
}) {
  if (roles.length === 0) return null;
  const toggle = (role: RoleRow, action: string, on: boolean) => {
    const current = new Set(grants[role.id] ?? []);
    if (on) current.add(action);
    else current.delete(action);
    // Adding, editing or deleting records needs seeing them.
    if (on && action !== 'read') current.add('read');
    if (!on && action === 'read') current.clear();
    onChange({ ...grants, [role.id]: [...current] });
  };
  return (
    <Stack spacing={0.5} data-testid="role-grants">
      <Typography variant="subtitle2">Who may use it</Typography>
      <Typography variant="body2" color="text.secondary">
        Roles that may create record types get every permission. Tick what the other roles may do; you can change it
        later in Roles.
      </Typography>
      {roles.map((role) => (
        <Stack key={role.id} direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { sm: 'center' } }}>
          <Typography sx={{ width: 200, flexShrink: 0 }}>{role.name}</Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
            {GRANT_ACTIONS.map(([action, label]) => (
              <FormControlLabel
                key={action}
                label={label}
                control={
                  <Checkbox
                    size="small"
                    checked={makesTypes(role) || (grants[role.id] ?? []).includes(action)}
                    disabled={makesTypes(role)}
                    onChange={(event) => toggle(role, action, event.target.checked)}
                    slotProps={{ input: { 'aria-label': `${role.name}: ${label}` } }}
                  />
                }
              />
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}
