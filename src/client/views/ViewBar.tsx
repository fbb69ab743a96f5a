/**
 * Above a record list: the saved view it shows (by name, with a way back to the whole list), whether it is changed
 * (with Save, Save as new and Reset), the layout picker (layouts/LayoutPicker.tsx), "Group by" (GroupPicker.tsx) and
 * "Save as view", which keeps what the list shows (useViewDraft.ts: filters, sorts, columns, grouping, layout) as a
 * named view, shared with one's role when the person holds view:share, with any role when they manage roles, who
 * also make it a role's default view, or someone else's view ("Role defaults", RoleDefaultsDialog.tsx; docs/views.md).
 * The new view opens at once and is listed in the sidebar.
 */
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import CloseIcon from '@mui/icons-material/Close';
import RoleDefaultIcon from '@mui/icons-material/HomeOutlined';
import ShareIcon from '@mui/icons-material/ShareOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCreate, useNotify, useUpdate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { isApiError } from '../http/errors';
import type { FieldDescriptor } from '../records/fieldTypes';
import { countConditions } from './filterBuilder';
import { GroupPicker } from './GroupPicker';
import { LayoutPicker } from './layouts/LayoutPicker';
import { useListLayout } from './layouts/useLayout';
import { MyDefaultView } from './MyDefaultView';
import { RoleDefaultsDialog } from './RoleDefaultsDialog';
import { ShareViewDialog } from './ShareViewDialog';
import { ShareChoices, useShareTargets } from './sharing';
import type { SavedView } from './useSavedView';
import { useViewDraft, type ViewChange } from './useViewDraft';

interface ViewBarProps {
  resource: string;
  recordType: string;
  plural: string;
  fields: ReadonlySet<string>;
  view: SavedView | undefined;
  /** The type's fields, for the layout picker. */
  descriptors: FieldDescriptor[];
}

const CHANGE_LABELS: Record<ViewChange, string> = {
  filters: 'filters',
  sorts: 'sort',
  layout: 'layout',
  grouping: 'grouping',
  columns: 'columns',
};

/** The list of a view as it was saved: its URL without the list's own filters, sort, layout or grouping. */
export const savedViewPath = (resource: string, id: number) =>
  `/${resource}?view=${id}&filter=${encodeURIComponent('{}')}`;

export function ViewBar({ resource, recordType, plural, fields, view, descriptors }: ViewBarProps) {
  const [open, setOpen] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [settingDefaults, setSettingDefaults] = useState(false);
  const { user } = useSession();
  const { mayShare, manager } = useShareTargets();
  const owner = view !== undefined && user != null && view.user_id === user.id;
  const draft = useViewDraft(resource, view, descriptors, fields);
  // Grouping is the table's: the other layouts lay records out by a field of their own.
  const gridShown = useListLayout(view, descriptors) === null;
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
            <Box
              component={RouterLink}
              to={`/${resource}?view=${NO_VIEW}`}
              aria-label={`Close the view, show all ${plural}`}
            >
              <CloseIcon fontSize="small" />
            </Box>
          }
        />
      )}
      {view && <MyDefaultView view={view} plural={plural} />}
      {view && mayShare && owner && (
        <Button size="small" startIcon={<ShareIcon />} onClick={() => setSharing(true)}>
          Share
        </Button>
      )}
      {view && sharing && <ShareViewDialog view={view} onClose={() => setSharing(false)} />}
      {/* Someone else's view: one who manages roles makes it the default of roles it is shared with. */}
      {view && manager && !owner && (
        <Button size="small" startIcon={<RoleDefaultIcon />} onClick={() => setSettingDefaults(true)}>
          Role defaults
        </Button>
      )}
      {view && settingDefaults && <RoleDefaultsDialog view={view} onClose={() => setSettingDefaults(false)} />}
      {view && draft.changes.length > 0 && (
        <ViewChanged resource={resource} view={view} draft={draft} onSaveAsNew={() => setOpen(true)} />
      )}
      <LayoutPicker descriptors={descriptors} />
      {gridShown && <GroupPicker descriptors={descriptors} view={view} />}
      {!(view && draft.changes.length > 0) && (
        <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => setOpen(true)}>
          {view ? 'Save as new view' : 'Save as view'}
        </Button>
      )}
      {open && (
        <SaveViewDialog
          resource={resource}
          recordType={recordType}
          values={draft.whole}
          onClose={() => setOpen(false)}
          onSaved={draft.resetColumns}
        />
      )}
    </Box>
  );
}

/** `?view=none`: the whole list, not the role's default view (useDefaultView.ts). */
export const NO_VIEW = 'none';

/** "Changed: columns, sort" with Save (the view's owner), Save as new and Reset. */
function ViewChanged({
  resource,
  view,
  draft,
  onSaveAsNew,
}: {
  resource: string;
  view: SavedView;
  draft: ReturnType<typeof useViewDraft>;
  onSaveAsNew: () => void;
}) {
  const { user } = useSession();
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  const navigate = useNavigate();
  const owner = user != null && view.user_id === user.id;
  const reset = () => {
    draft.resetColumns();
    void navigate(savedViewPath(resource, view.id));
  };
  const save = () =>
    update(
      'views',
      { id: view.id, data: draft.update, previousData: view },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(`The view "${view.name}" is saved.`, { type: 'info' });
          reset();
        },
        onError: (failure) => {
          const fieldMessages = isApiError(failure) ? Object.values(failure.body?.errors ?? {}) : [];
          notify(fieldMessages[0] ?? (failure instanceof Error ? failure.message : 'The view could not be saved.'), {
            type: 'error',
          });
        },
      },
    );
  return (
    <Box
      role="group"
      aria-label="Changes to the view"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}
    >
      <Chip
        size="small"
        color="warning"
        label={`Changed: ${draft.changes.map((change) => CHANGE_LABELS[change]).join(', ')}`}
        data-testid="view-changed"
      />
      {owner && (
        <Button size="small" variant="contained" onClick={save} disabled={isPending}>
          Save
        </Button>
      )}
      <Button size="small" onClick={onSaveAsNew}>
        Save as new
      </Button>
      <Button size="small" onClick={reset}>
        Reset
      </Button>
    </Box>
  );
}

function SaveViewDialog({
  resource,
  recordType,
  values,
  onClose,
  onSaved,
}: {
  resource: string;
  recordType: string;
  /** What the list shows (useViewDraft.ts). */
  values: ReturnType<typeof useViewDraft>['whole'];
  onClose: () => void;
  /** After the save, before the new view opens: the open view's changed columns are forgotten. */
  onSaved: () => void;
}) {
  const { user } = useSession();
  const [create, { isPending }] = useCreate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [sharedRoles, setSharedRoles] = useState<number[]>([]);
  const [sharedTeams, setSharedTeams] = useState<number[]>([]);
  const [defaultRoles, setDefaultRoles] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Whom the person may share with (sharing.tsx: the server holds the same rule).
  const targets = useShareTargets();
  const count = values.filters ? countConditions(values.filters) : 0;

  const save = () => {
    if (!name.trim()) {
      setError('Give the view a name.');
      return;
    }
    create(
      'views',
      {
        data: {
          name: name.trim(),
          record_type: recordType,
          ...values,
          role_ids: sharedRoles,
          team_ids: sharedTeams,
          ...(defaultRoles.length ? { default_role_ids: defaultRoles } : {}),
        },
      },
      {
        onSuccess: (saved: { id: number }) => {
          notify(`The view "${name.trim()}" is saved.`, { type: 'info' });
          onSaved();
          onClose();
          void navigate(savedViewPath(resource, saved.id));
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
          helperText={error ?? `${count} filter${count === 1 ? '' : 's'}, the sort, columns and grouping of this list`}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <ShareChoices
          legend="Share with"
          choices={targets.roles}
          chosen={sharedRoles}
          onChange={setSharedRoles}
          labelOf={(role) => (role.id === user?.role_id ? `${role.name} (my role)` : role.name)}
        />
        <ShareChoices
          legend="Share with teams"
          choices={targets.teams}
          chosen={sharedTeams}
          onChange={setSharedTeams}
        />
        {targets.manager && (
          <ShareChoices
            legend="Default view"
            choices={targets.allRoles}
            chosen={defaultRoles}
            onChange={setDefaultRoles}
            labelOf={(role) => `Default for ${role.name}`}
          />
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
