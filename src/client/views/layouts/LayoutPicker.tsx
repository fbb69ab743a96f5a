/**
 * The list's layout picker (docs/views.md "Layouts"): Table, and each of Kanban, Calendar, Map and Gallery the record
 * type has a field for; then the field it is laid out by when there is a choice (a calendar's end field too, a
 * gallery's fields under the name). What is picked is kept in the URL (`layout`, `by`, `rank`, `end`, `fields`), so it stays
 * on reload and "Save as view" keeps it as the view's `layout` and `settings`.
 */
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { useSavedView } from '../useSavedView';
import {
  GALLERY_FIELDS,
  isCalendarField,
  isRankField,
  LAYOUT_FITS,
  LAYOUT_KINDS,
  type LayoutKind,
  layoutOf,
} from './useLayout';

const LABELS: Record<LayoutKind | 'grid', string> = {
  grid: 'Table',
  kanban: 'Kanban',
  calendar: 'Calendar',
  map: 'Map',
  gallery: 'Gallery',
};

const NONE = '';
const selectSx = { minWidth: 120, maxWidth: 220 };

export function LayoutPicker({ descriptors }: { descriptors: FieldDescriptor[] }) {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const { view } = useSavedView();
  const params = new URLSearchParams(search);
  const layout = layoutOf(params, view, descriptors);
  const kinds = LAYOUT_KINDS.filter((kind) => descriptors.some(LAYOUT_FITS[kind]));
  if (!kinds.length) return null;
  const candidates = layout ? descriptors.filter(LAYOUT_FITS[layout.kind]) : [];

  /** The URL with the layout's parameters replaced (the list's filters, sort and view stay). */
  const go = (next: { kind: LayoutKind | 'grid'; by?: string; rank?: string; end?: string; fields?: string[] }) => {
    const url = new URLSearchParams(search);
    for (const name of ['layout', 'by', 'rank', 'end', 'mode', 'date', 'fields']) url.delete(name);
    url.set('layout', next.kind);
    if (next.by) url.set('by', next.by);
    if (next.rank) url.set('rank', next.rank);
    if (next.end) url.set('end', next.end);
    if (next.fields?.length) url.set('fields', next.fields.join(','));
    void navigate({ pathname, search: `?${url}` });
  };
  const current = layout
    ? {
        kind: layout.kind,
        by: layout.field.slug,
        rank: layout.rank?.slug,
        end: layout.end?.slug,
        fields: layout.fields,
      }
    : null;

  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} data-testid="layout-picker">
      <TextField
        select
        size="small"
        label="Layout"
        value={layout?.kind ?? 'grid'}
        onChange={(event) => go({ kind: event.target.value as LayoutKind | 'grid' })}
        sx={selectSx}
      >
        {(['grid', ...kinds] as const).map((kind) => (
          <MenuItem key={kind} value={kind}>
            {LABELS[kind]}
          </MenuItem>
        ))}
      </TextField>
      {current && candidates.length > 1 && (
        <TextField
          select
          size="small"
          label={current.kind === 'gallery' ? 'Image' : current.kind === 'calendar' ? 'Date' : 'By'}
          value={current.by}
          onChange={(event) => go({ ...current, by: event.target.value })}
          sx={selectSx}
        >
          {candidates.map((field) => (
            <MenuItem key={field.slug} value={field.slug}>
              {field.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {current?.kind === 'kanban' && descriptors.some(isRankField) && (
        <TextField
          select
          size="small"
          label="Order"
          value={current.rank ?? NONE}
          onChange={(event) => go({ ...current, rank: event.target.value || undefined })}
          sx={selectSx}
        >
          <MenuItem value={NONE}>The list's sort</MenuItem>
          {descriptors.filter(isRankField).map((field) => (
            <MenuItem key={field.slug} value={field.slug}>
              {field.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {current?.kind === 'calendar' && descriptors.filter(isCalendarField).length > 1 && (
        <TextField
          select
          size="small"
          label="Ends"
          value={current.end ?? NONE}
          onChange={(event) => go({ ...current, end: event.target.value || undefined })}
          sx={selectSx}
        >
          <MenuItem value={NONE}>The same day</MenuItem>
          {descriptors
            .filter((field) => isCalendarField(field) && field.slug !== current.by)
            .map((field) => (
              <MenuItem key={field.slug} value={field.slug}>
                {field.label}
              </MenuItem>
            ))}
        </TextField>
      )}
      {current?.kind === 'gallery' && (
        <TextField
          select
          size="small"
          label={`Fields (up to ${GALLERY_FIELDS})`}
          value={current.fields}
          onChange={(event) => {
            const value = event.target.value as unknown as string[] | string;
            const picked = typeof value === 'string' ? value.split(',') : value;
            go({ ...current, fields: picked.slice(0, GALLERY_FIELDS) });
          }}
          slotProps={{ select: { multiple: true } }}
          sx={{ ...selectSx, minWidth: 160 }}
        >
          {descriptors
            .filter((field) => field.type !== 'attachment')
            .map((field) => (
              <MenuItem
                key={field.slug}
                value={field.slug}
                disabled={current.fields.length >= GALLERY_FIELDS && !current.fields.includes(field.slug)}
              >
                {field.label}
              </MenuItem>
            ))}
        </TextField>
      )}
    </Box>
  );
}
