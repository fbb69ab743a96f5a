/**
 * Above a record list: the saved view it shows (by name, with a way back to the whole list), the layout picker
 * (layouts/LayoutPicker.tsx) and "Save as view",
 * which keeps the list's filters (the filter builder's conditions, views/FilterBuilder.tsx) and sorts as a named view, shared with one's role
 * when the person holds view:share, with any role when they manage roles (docs/views.md). The new view opens at once and is listed in the sidebar.
 */
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCreate, useGetList, useListContext, useNotify } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { can } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { isApiError } from '../http/errors';
import type { FieldDescriptor } from '../records/fieldTypes';
import { countConditions } from './filterBuilder';
import { LayoutPicker } from './layouts/LayoutPicker';
import { useLayoutToSave } from './layouts/useLayout';
import { sortsOf } from './listSorts';
import type { SavedView } from './useSavedView';
import { listViewFilters } from './viewFilters';

interface ViewBarProps {
  resource: string;
  recordType: string;
  plural: string;
  fields: ReadonlySet<string>;
  view: SavedView | undefined;
  /** The type's fields, for the layout picker. */
  descriptors: FieldDescriptor[];
}

export function ViewBar({ resource, recordType, plural, fields, view, descriptors }: ViewBarProps) {
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 1, pt: 0.5 }}>
      {view && (
        <Chip
          label={`View: ${view.name}${view.shared ? ' (shared)' : ''}`}
          color="primary"
          variant="outlined"
          data-testid="open-view"
          onDelete={() => undefined}
          deleteIcon={
            <Box component={RouterLink} to={`/${resource}`} aria-label={`Close the view, show all ${plural}`}>
              <CloseIcon fontSize="small" />
            </Box>
          }
        />
      )}
      <LayoutPicker descriptors={descriptors} />
      <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => setOpen(true)}>
        Save as view
      </Button>
      {open && (
        <SaveViewDialog resource={resource} recordType={recordType} fields={fields} onClose={() => setOpen(false)} />
      )}
    </Box>
  );
}

function SaveViewDialog({
  resource,
  recordType,
  fields,
  onClose,
}: {
  resource: string;
  recordType: string;
  fields: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { filterValues, sort } = useListContext();
  const { user } = useSession();
  const [create, { isPending }] = useCreate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [sharedRoles, setSharedRoles] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const layout = useLayoutToSave();
  // view:share: with one's own role; those who manage roles: with any role (the server holds the same rule).
  const mayShare = can(user, 'view:share') && user?.role_id != null;
  const manager = mayShare && can(user, 'role:update');
  const { data: roles = [] } = useGetList<{ id: number; name: string }>(
    'roles',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: manager },
  );
  const shareable = manager ? roles : mayShare && user?.role ? [{ id: user.role.id, name: user.role.name }] : [];
  const toggleRole = (id: number, on: boolean) =>
    setSharedRoles((current) => (on ? [...current, id] : current.filter((other) => other !== id)));
  const filters = listViewFilters(filterValues ?? {}, fields);
  const count = filters ? countConditions(filters) : 0;

  const save = () => {
    if (!name.trim()) {
      setError('Give the view a name.');
      return;
    }
    const sorts = sortsOf(sort);
    create(
      'views',
      {
        data: {
          name: name.trim(),
          record_type: recordType,
          filters,
          sorts,
          ...layout,
          role_ids: sharedRoles,
        },
      },
      {
        onSuccess: (saved: { id: number; url?: string | null }) => {
          notify(`The view "${name.trim()}" is saved.`, { type: 'info' });
          onClose();
          void navigate(saved.url ?? `/${resource}?view=${saved.id}`);
        },
        onError: (failure) => {
          const fieldMessages = isApiError(failure) ? Object.values(failure.body?.errors ?? {}) : [];
          setError(fieldMessages[0] ?? (failure instanceof Error ? failure.message : 'The view could not be saved.'));
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="save-view-title">
      <DialogTitle id="save-view-title">Save as view</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={Boolean(error)}
          helperText={error ?? `${count} filter${count === 1 ? '' : 's'} and the sort of this list`}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        {shareable.length > 0 && (
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
            <Box component="legend" sx={{ typography: 'body2', color: 'text.secondary' }}>
              Share with
            </Box>
            {shareable.map((role) => (
              <FormControlLabel
                key={role.id}
                control={
                  <Checkbox
                    checked={sharedRoles.includes(role.id)}
                    onChange={(event) => toggleRole(role.id, event.target.checked)}
                  />
                }
                label={role.id === user?.role_id ? `${role.name} (my role)` : role.name}
              />
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
