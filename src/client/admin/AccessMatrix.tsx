/**
 * What a role sees, type by type (docs/security.md "The administrator's screen"): a matrix of record types × actions,
 * each row with its rules in plain words ("Organizers see the inspections they created or are assigned, or of their
 * team; cannot see Fine"), a "Rules" button opening the editor of that type's row and field rules, and "See as": a
 * person's view of every type under the role as it is being edited, before it is saved.
 */

import CheckIcon from '@mui/icons-material/Check';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { type RolePolicy, rulesBeyond } from '../../common/access-rules';
import { useSession } from '../app/hooks';
import { useAppDataProvider } from '../records/hooks';
import { type AccessType, accessMatrix, POLICY_ACTIONS } from './access';
import { RuleEditor } from './RuleEditor';
import { SeeAs } from './SeeAs';

const ACTION_LABELS: Record<string, string> = {
  read: 'See',
  create: 'Add',
  update: 'Edit',
  delete: 'Delete',
  restore: 'Restore',
  export: 'Export',
  import: 'Import',
  history: 'History',
};

export function AccessMatrix({
  role,
  onChange,
  readOnly,
}: {
  role: { name: string; permissions: string[]; policy: RolePolicy };
  onChange: (policy: RolePolicy) => void;
  readOnly: boolean;
}) {
  const me = useSession().user;
  const dataProvider = useAppDataProvider();
  const [types, setTypes] = useState<AccessType[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<AccessType | null>(null);
  const [find, setFind] = useState('');
  useEffect(() => {
    dataProvider.accessTypes().then(setTypes, () => setFailed(true));
  }, [dataProvider]);
  const rows = useMemo(() => (types ? accessMatrix(role, types) : []), [role, types]);
  const beyond = useMemo(() => (me ? rulesBeyond(me, role) : []), [me, role]);
  const needle = find.trim().toLowerCase();
  if (failed) return <Alert severity="warning">The record types could not be loaded.</Alert>;
  if (!types) return <Typography color="text.secondary">Loading what this role sees…</Typography>;
  const shown = rows.filter((row) => !needle || row.type.plural.toLowerCase().includes(needle));
  return (
    <Stack spacing={2} data-testid="access-matrix">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1 }}>
          What this role sees and changes
        </Typography>
        <TextField size="small" label="Find a record type" value={find} onChange={(e) => setFind(e.target.value)} />
      </Stack>
      {beyond.length > 0 && !readOnly && (
        <Alert severity="warning" data-testid="rules-beyond">
          These rules reach further than your own ({beyond.slice(0, 3).join(', ')}
          {beyond.length > 3 ? ` and ${beyond.length - 3} more` : ''}): only someone whose role reaches as far may save
          them.
        </Alert>
      )}
      <Box sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" sx={{ minWidth: { xs: 340, sm: 720 }, '& td, & th': { px: { xs: 0.5, sm: 1.5 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>Records</TableCell>
              {POLICY_ACTIONS.map((action) => (
                <TableCell
                  key={action}
                  align="center"
                  sx={{
                    display: { xs: action === 'read' || action === 'update' ? 'table-cell' : 'none', md: 'table-cell' },
                  }}
                >
                  {ACTION_LABELS[action]}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.type.type} data-type={row.type.type}>
                <TableCell sx={{ minWidth: 220 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {row.type.plural}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" data-testid="access-sentence">
                    {row.sentence}
                  </Typography>
                  {!readOnly && row.actions.read && (
                    <Button
                      size="small"
                      onClick={() => setEditing(row.type)}
                      aria-label={`Rules for ${row.type.plural}`}
                    >
                      Rules
                    </Button>
                  )}
                </TableCell>
                {POLICY_ACTIONS.map((action) => (
                  <TableCell
                    key={action}
                    align="center"
                    sx={{
                      display: {
                        xs: action === 'read' || action === 'update' ? 'table-cell' : 'none',
                        md: 'table-cell',
                      },
                    }}
                  >
                    {row.actions[action] ? (
                      <CheckIcon fontSize="small" titleAccess={`${ACTION_LABELS[action]}: yes`} />
                    ) : (
                      <Box component="span" sx={{ color: 'text.disabled' }} title={`${ACTION_LABELS[action]}: no`}>
                        –
                      </Box>
                    )}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {editing && (
        <RuleEditor
          type={editing}
          role={role}
          onClose={() => setEditing(null)}
          onApply={(policy) => {
            onChange(policy);
            setEditing(null);
          }}
        />
      )}
      <SeeAs role={role} />
    </Stack>
  );
}
