/**
 * The buttons of a record's show page: edit, delete (soft; the server's message), and for sites change-type,
 * attach contacts and share; for contractors attach contacts and share.
 */

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt';
import ShareIcon from '@mui/icons-material/ShareOutlined';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCanAccess, useCanAccessResources, useGetList } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { CATEGORY_PERMISSIONS } from '../../../common/permissions';
import { titleCase } from '../../i18n/labels';
import { DeleteConfirm } from '../DeleteConfirm';
import { describeField } from '../fieldTypes/describe';
import { useCategoryAccess } from '../hooks';
import { useRecordMutations } from '../mutations';
import { type RecordSchema, recordLabel } from '../schema';

function SearchPicker({
  resource,
  label,
  value,
  onChange,
  multiple = true,
}: {
  resource: string;
  label: string;
  value: any[];
  onChange: (value: any[]) => void;
  multiple?: boolean;
}) {
  const [q, setQ] = useState('');
  const { data = [] } = useGetList(resource, { filter: q ? { q } : {}, pagination: { page: 1, perPage: 25 } });
  const options = [...value, ...data.filter((item) => !value.some((chosen) => chosen.id === item.id))];
  return (
    <Autocomplete
      multiple={multiple as true}
      options={options}
      value={value}
      filterOptions={(list) => list}
      getOptionLabel={(option) => recordLabel(option)}
      isOptionEqualToValue={(option, other) => option.id === other.id}
      onInputChange={(_event, text, reason) => reason !== 'reset' && setQ(text)}
      onChange={(_event, next) => onChange(next as any[])}
      renderInput={(params) => <TextField {...params} label={label} size="small" margin="dense" />}
    />
  );
}

function ChangeTypeDialog({ schema, record, onClose }: { schema: RecordSchema; record: any; onClose: () => void }) {
  const { action } = useRecordMutations(schema.resource);
  const typeField = schema.fields.find((field) => field.slug === 'type');
  const choices = typeField ? describeField(typeField).choices : [];
  // A category type is offered to people who may update records of that category; the other types to all.
  const categories = CATEGORY_PERMISSIONS[schema.type] ?? [];
  const editable = useCategoryAccess(schema.resource, 'edit', categories);
  const allowed = choices.filter(
    (choice) => !categories.includes(choice.id) || editable === 'all' || editable.includes(choice.id),
  );
  const [type, setType] = useState<string>(record.type ?? '');
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Change the type of {recordLabel(record)}</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          label="Type"
          value={type}
          onChange={(event) => setType(event.target.value)}
          margin="dense"
          data-testid="change-type-select"
        >
          {allowed.map((choice) => (
            <MenuItem key={choice.id} value={choice.id}>
              {choice.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy || !type || type === record.type}
          onClick={async () => {
            setBusy(true);
            const done = await action(
              record.id,
              'change-type',
              { type, updated_at: record.updated_at },
              `${titleCase(schema.name_singular)} type changed successfully.`,
            );
            setBusy(false);
            if (done) onClose();
          }}
        >
          Change type
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function AttachContactsDialog({ schema, record, onClose }: { schema: RecordSchema; record: any; onClose: () => void }) {
  const { action } = useRecordMutations(schema.resource);
  const current: number[] = record.contact_ids ?? [];
  const { data: existing = [] } = useGetList(
    'contacts',
    { filter: { id: current }, pagination: { page: 1, perPage: 500 } },
    { enabled: current.length > 0 },
  );
  const [chosen, setChosen] = useState<any[] | null>(null);
  const value = chosen ?? existing;
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Contacts of {recordLabel(record)}</DialogTitle>
      <DialogContent>
        <SearchPicker resource="contacts" label="Contacts" value={value} onChange={setChosen} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy || chosen === null}
          onClick={async () => {
            setBusy(true);
            const done = await action(
              record.id,
              'contacts',
              { contact_ids: value.map((contact) => Number(contact.id)), updated_at: record.updated_at },
              'Contacts saved.',
            );
            setBusy(false);
            if (done) onClose();
          }}
        >
          Save contacts
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ShareDialog({ schema, record, onClose }: { schema: RecordSchema; record: any; onClose: () => void }) {
  const { action } = useRecordMutations(schema.resource);
  const { canAccess: reads = {} } = useCanAccessResources({ action: 'read', resources: ['users', 'teams'] });
  const [people, setPeople] = useState<any[]>([]);
  const [teams, setTeams] = useState<any[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Share {recordLabel(record)}</DialogTitle>
      <DialogContent>
        {reads.users && <SearchPicker resource="users" label="People" value={people} onChange={setPeople} />}
        {reads.teams && <SearchPicker resource="teams" label="Teams" value={teams} onChange={setTeams} />}
        <TextField
          label="Message (optional)"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          size="small"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={busy || (!people.length && !teams.length)}
          onClick={async () => {
            setBusy(true);
            const done = await action(
              record.id,
              'share',
              {
                user_ids: people.map((person) => Number(person.id)),
                team_ids: teams.map((team) => Number(team.id)),
                message: message || null,
              },
              'Shared.',
            );
            setBusy(false);
            if (done) onClose();
          }}
        >
          Share
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function RecordActions({ schema, record }: { schema: RecordSchema; record: any }) {
  const navigate = useNavigate();
  const { remove } = useRecordMutations(schema.resource);
  const [dialog, setDialog] = useState<'delete' | 'type' | 'contacts' | 'share' | null>(null);
  const { canAccess: canUpdate } = useCanAccess({ resource: schema.resource, action: 'edit', record });
  const { canAccess: canDelete } = useCanAccess({ resource: schema.resource, action: 'delete', record });
  const { canAccess: reads = {} } = useCanAccessResources({
    action: 'read',
    resources: ['contacts', 'users', 'teams'],
  });
  const special = schema.type === 'site' || schema.type === 'contractor';
  const singular = titleCase(schema.name_singular);
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
      {canUpdate && (
        <Button
          variant="contained"
          size="small"
          startIcon={<EditIcon />}
          component={RouterLink}
          to={`/${schema.resource}/${record.id}`}
        >
          Edit
        </Button>
      )}
      {canUpdate && schema.type === 'site' && (
        <Button size="small" variant="outlined" startIcon={<SwapIcon />} onClick={() => setDialog('type')}>
          Change type
        </Button>
      )}
      {canUpdate && special && reads.contacts && (
        <Button size="small" variant="outlined" startIcon={<PersonAddIcon />} onClick={() => setDialog('contacts')}>
          Contacts
        </Button>
      )}
      {special && (reads.users || reads.teams) && (
        <Button size="small" variant="outlined" startIcon={<ShareIcon />} onClick={() => setDialog('share')}>
          Share
        </Button>
      )}
      {canDelete && (
        <Button
          size="small"
          color="error"
          variant="outlined"
          startIcon={<DeleteIcon />}
          onClick={() => setDialog('delete')}
        >
          Delete
        </Button>
      )}
      {dialog === 'type' && <ChangeTypeDialog schema={schema} record={record} onClose={() => setDialog(null)} />}
      {dialog === 'contacts' && (
        <AttachContactsDialog schema={schema} record={record} onClose={() => setDialog(null)} />
      )}
      {dialog === 'share' && <ShareDialog schema={schema} record={record} onClose={() => setDialog(null)} />}
      <DeleteConfirm
        open={dialog === 'delete'}
        title={`Delete ${singular.toLowerCase()} ${recordLabel(record)}?`}
        restorable={schema.restorable !== false}
        onConfirm={async () => {
          if (await remove(record, `${singular} deleted successfully.`)) await navigate(`/${schema.resource}`);
        }}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
