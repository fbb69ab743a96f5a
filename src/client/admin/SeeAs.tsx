/**
 * "See as": pick a person and see, before the role is saved, how many records of each type they would see under it
 * and a few of them by name (POST /api/access/see-as with the role's permissions and rules as they are being edited).
 */

import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { RolePolicy, TypeOutlook } from '../../common/access-rules';
import type { AppDataProvider } from '../providers/dataProvider';
import { useAppDataProvider } from '../records/hooks';

type Person = { id: number; name: string };

const messageOf = (error: unknown) =>
  (error as { body?: { message?: string }; message?: string }).body?.message ??
  (error as Error).message ??
  'It could not be worked out.';

const findPeople = (dataProvider: AppDataProvider, q: string): Promise<Person[]> =>
  dataProvider.options('users', q ? { q } : undefined);

export function SeeAs({ role }: { role: { permissions: string[]; policy: RolePolicy } }) {
  const [people, setPeople] = useState<Person[]>([]);
  const [person, setPerson] = useState<Person | null>(null);
  const [rows, setRows] = useState<TypeOutlook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dataProvider = useAppDataProvider();
  const search = (q: string) => findPeople(dataProvider, q).then(setPeople, () => undefined);
  useEffect(() => {
    findPeople(dataProvider, '').then(setPeople, () => undefined);
  }, [dataProvider]);
  const run = async () => {
    if (!person) return;
    setBusy(true);
    setError(null);
    try {
      setRows(await dataProvider.seeAs({ user_id: person.id, permissions: role.permissions, policy: role.policy }));
    } catch (e) {
      setError(messageOf(e));
      setRows(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1} data-testid="see-as">
      <Typography variant="subtitle1" component="h2">
        See as
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Pick a person: what they would see with this role as it is now on the screen, before it is saved.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Autocomplete
          options={people}
          value={person}
          onChange={(_, value) => setPerson(value)}
          onInputChange={(_, text) => void search(text)}
          filterOptions={(options) => options}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          renderInput={(params) => <TextField {...params} size="small" label="Person" />}
          sx={{ minWidth: 240 }}
        />
        <Button variant="outlined" disabled={!person || busy} onClick={run}>
          See as {person?.name ?? '…'}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {rows && (
        <Table size="small" aria-label={`What ${person?.name ?? 'they'} would see`}>
          <TableHead>
            <TableRow>
              <TableCell>Records</TableCell>
              <TableCell align="right">How many</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>For example</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.type} data-type={row.type}>
                <TableCell>{row.plural}</TableCell>
                <TableCell align="right" data-testid="see-as-count">
                  {row.estimated ? 'about ' : ''}
                  {row.count.toLocaleString('en')}
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  {row.sample.map((item) => item.label).join(', ')}
                  {row.count > row.sample.length && row.sample.length ? '…' : ''}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
