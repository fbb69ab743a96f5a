/**
 * "Group by" in the view bar: none, or a choice, relation, person or yes/no field of the type (grouping.ts). Kept in
 * the URL (`group`), so it stays on reload, and saved with a view as its `group_by`.
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FieldDescriptor } from '../records/fieldTypes';
import { GROUP_PARAM, groupSlugOf, isGroupField } from './grouping';
import type { SavedView } from './useSavedView';

const NONE = '';

export function GroupPicker({ descriptors, view }: { descriptors: FieldDescriptor[]; view: SavedView | undefined }) {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const fields = descriptors.filter(isGroupField);
  if (!fields.length) return null;
  const current = groupSlugOf(new URLSearchParams(search), view) ?? NONE;
  const choose = (slug: string) => {
    const url = new URLSearchParams(search);
    // No grouping over a view's grouping is said in the URL (`group=`); without a view it is no parameter at all.
    if (slug === NONE && !view?.group_by) url.delete(GROUP_PARAM);
    else url.set(GROUP_PARAM, slug);
    void navigate({ pathname, search: `?${url}` });
  };
  return (
    <TextField
      select
      size="small"
      label="Group by"
      value={fields.some((field) => field.slug === current) ? current : NONE}
      onChange={(event) => choose(event.target.value)}
      sx={{ minWidth: 120, maxWidth: 220 }}
    >
      <MenuItem value={NONE}>None</MenuItem>
      {fields.map((field) => (
        <MenuItem key={field.slug} value={field.slug}>
          {field.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
