/**
 * The roles permission checklist: a table per group, one row per entity and one column per action (create, read,
 * update, delete, restore), a row tick for all of an entity, the category reads of sites and contractors under
 * their row, and the special permissions. Entities are named as their record types are.
 */

import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { ACTIONS, canGrant } from '../../common/permissions';
import { useMainData, useSession } from '../app/hooks';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { coverage, permissionGroups, SPECIAL, toggle, toggleAll } from './permissions';

const SHORT_ACTIONS: Record<string, string> = {
  create: 'Add',
  read: 'Read',
  update: 'Edit',
  delete: 'Del',
  restore: 'Undo',
};

/** Permissions the signed-in person does not hold are shown but cannot be ticked: the server refuses granting them. */
export function PermissionChecklist({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const { schemas } = useMainData();
  const me = useSession().user;
  const grantable = (permission: string) => canGrant(me, [permission]);
  const [search, setSearch] = useState('');
  const held = useMemo(() => new Set(value), [value]);
  const groups = useMemo(() => {
    const labels = Object.fromEntries(schemas.map((schema) => [schema.type, titleCase(schema.name_plural)]));
    const custom = schemas
      .filter((schema) => (schema as { built_in?: boolean }).built_in === false)
      .map((schema) => schema.type);
    return permissionGroups(labels, custom);
  }, [schemas]);
  const needle = search.trim().toLowerCase();

  return (
    <Stack spacing={2} data-testid="permission-checklist">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          label="Find a permission"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ maxWidth: 320 }}
        />
        <Typography variant="body2" color="text.secondary">
          {value.length} permissions held
        </Typography>
      </Stack>
      {groups.map((group) => {
        const rows = group.rows.filter(
          (row) => !needle || row.label.toLowerCase().includes(needle) || row.entity.includes(needle),
        );
        if (!rows.length) return null;
        return (
          <Box key={group.title}>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              {group.title}
            </Typography>
            <Box sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <Table
                size="small"
                sx={{
                  minWidth: { xs: 330, sm: 560 },
                  tableLayout: 'fixed',
                  '& td, & th': { py: 0.25, px: { xs: 0.5, sm: 2 } },
                }}
              >
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ width: { xs: '35%', sm: '45%' } }}>Records</TableCell>
                    {ACTIONS.map((action) => (
                      <TableCell
                        key={action}
                        align="center"
                        sx={{ textTransform: 'capitalize', fontSize: { xs: '0.7rem', sm: 'inherit' } }}
                      >
                        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                          {action}
                        </Box>
                        <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }} title={action}>
                          {SHORT_ACTIONS[action]}
                        </Box>
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => {
                    const state = coverage(held, row.permissions);
                    return (
                      <TableRow key={row.entity} hover data-entity={row.entity}>
                        <TableCell>
                          <FormControlLabel
                            control={
                              <Checkbox
                                size="small"
                                checked={state === 'all'}
                                indeterminate={state === 'some'}
                                disabled={!row.permissions.every(grantable)}
                                onChange={(event) => onChange(toggleAll(value, row.permissions, event.target.checked))}
                                slotProps={{ input: { 'aria-label': `All ${row.label} permissions` } }}
                              />
                            }
                            label={<Typography variant="body2">{row.label}</Typography>}
                          />
                          {row.categories.length > 0 && (
                            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, ml: { xs: 1, sm: 4 }, mb: 0.5 }}>
                              <Typography
                                variant="caption"
                                color="text.secondary"
                                sx={{ mr: 0.5, alignSelf: 'center' }}
                              >
                                Read only:
                              </Typography>
                              {row.categories.map(({ category, permission }) => (
                                <Chip
                                  key={permission}
                                  size="small"
                                  label={TYPE_LABELS[category] ?? category}
                                  color={held.has(permission) ? 'primary' : 'default'}
                                  variant={held.has(permission) ? 'filled' : 'outlined'}
                                  onClick={
                                    grantable(permission)
                                      ? () => onChange(toggle(value, permission, !held.has(permission)))
                                      : undefined
                                  }
                                  disabled={!grantable(permission)}
                                  aria-pressed={held.has(permission)}
                                  data-permission={permission}
                                />
                              ))}
                            </Stack>
                          )}
                        </TableCell>
                        {row.permissions.map((permission) => (
                          <TableCell key={permission} align="center">
                            <Checkbox
                              size="small"
                              checked={held.has(permission)}
                              disabled={!grantable(permission)}
                              onChange={(event) => onChange(toggle(value, permission, event.target.checked))}
                              slotProps={{
                                input: { 'aria-label': permission, 'data-permission': permission } as object,
                              }}
                            />
                          </TableCell>
                        ))}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </Box>
          </Box>
        );
      })}
      {(!needle || SPECIAL.some((item) => item.label.toLowerCase().includes(needle))) && (
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            Special permissions
          </Typography>
          <Stack>
            {SPECIAL.map(({ permission, label }) => (
              <FormControlLabel
                key={permission}
                control={
                  <Checkbox
                    size="small"
                    checked={held.has(permission)}
                    disabled={!grantable(permission)}
                    onChange={(event) => onChange(toggle(value, permission, event.target.checked))}
                    slotProps={{ input: { 'data-permission': permission } as object }}
                  />
                }
                label={<Typography variant="body2">{label}</Typography>}
              />
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
