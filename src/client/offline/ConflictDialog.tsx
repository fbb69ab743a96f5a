/**
 * A change made on this device that the server refused because someone saved the record after it was made (409).
 * Nothing is overwritten until the person chooses: keep mine (the fields they changed are sent again over the other
 * person's version, whose other changes stay), take theirs (mine is dropped), or edit (start from mine, with theirs
 * beside each field, and send the result).
 */

import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useMainData } from '../app/hooks';
import { typeForResource } from '../resources/names';
import type { OutboxItem } from './database';
import { offline } from './runtime';

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '(empty)'
    : Array.isArray(value)
      ? value.join(', ')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const editable = (value: unknown) =>
  value === null || value === undefined || ['string', 'number'].includes(typeof value);

export default function ConflictDialog({ item, onClose }: { item: OutboxItem; onClose: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const queryClient = useQueryClient();
  const { schemas } = useMainData();
  const theirs = item.theirs;
  const fields = useMemo(() => {
    const type = typeForResource(item.resource);
    const schema = schemas.find((candidate) => candidate.type === type);
    // The fields the person changed (against the record as they saw it); without that, those that differ from theirs.
    const base = item.base ?? theirs;
    return Object.keys(item.data)
      .filter((slug) => slug !== 'updated_at' && (!base || !same(item.data[slug], base[slug])))
      .map((slug) => ({ slug, name: schema?.fields?.find((field) => field.slug === slug)?.name ?? slug }));
  }, [item, theirs, schemas]);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...item.data }));
  const [busy, setBusy] = useState(false);

  const send = async (data: Record<string, unknown>) => {
    setBusy(true);
    // Only the person's fields, over the version now seen: the server takes them and keeps the other person's other
    // changes; what they had is in the record's history.
    const mine = Object.fromEntries(fields.map(({ slug }) => [slug, data[slug]]));
    await offline.retryItem(item, { ...mine, ...(theirs?.updated_at ? { updated_at: theirs.updated_at } : {}) });
    await queryClient.invalidateQueries({ queryKey: [item.resource] });
    onClose();
  };
  const takeTheirs = async () => {
    setBusy(true);
    await offline.discard(item);
    await queryClient.invalidateQueries({ queryKey: [item.resource] });
    onClose();
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullScreen={phone}
      maxWidth="sm"
      fullWidth
      aria-labelledby="conflict-title"
      data-testid="conflict-dialog"
    >
      <DialogTitle id="conflict-title">Someone else changed this record</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {item.label}: you made this change on this device, and{' '}
          {theirs ? 'someone saved the record after that.' : 'the record could not be read back.'} Choose what to keep.
        </DialogContentText>
        <Table size="small" aria-label="Your change and theirs">
          <TableHead>
            <TableRow>
              <TableCell component="th">Field</TableCell>
              <TableCell component="th">Yours</TableCell>
              <TableCell component="th">Theirs</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map(({ slug, name }) => (
              <TableRow key={slug} data-testid="conflict-field">
                <TableCell>{name}</TableCell>
                <TableCell>
                  {editing && editable(item.data[slug]) ? (
                    <TextField
                      size="small"
                      fullWidth
                      label={name}
                      value={values[slug] ?? ''}
                      onChange={(event) =>
                        setValues({
                          ...values,
                          [slug]: typeof item.data[slug] === 'number' ? Number(event.target.value) : event.target.value,
                        })
                      }
                    />
                  ) : (
                    shown(item.data[slug])
                  )}
                </TableCell>
                <TableCell>{theirs ? shown(theirs[slug]) : '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1, px: 3, pb: 2 }}>
        {editing ? (
          <>
            <Button onClick={() => setEditing(false)} disabled={busy}>
              Back
            </Button>
            <Button variant="contained" onClick={() => void send(values)} disabled={busy}>
              Save my edit
            </Button>
          </>
        ) : (
          <>
            <Button onClick={() => void takeTheirs()} disabled={busy}>
              Take theirs
            </Button>
            {fields.some(({ slug }) => editable(item.data[slug])) && (
              <Button onClick={() => setEditing(true)} disabled={busy}>
                Edit
              </Button>
            )}
            <Button variant="contained" onClick={() => void send(item.data)} disabled={busy}>
              Keep mine
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
