/** A rating's number of stars (`options.max`, 3 to 10; five unless chosen). */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { RATING_STARS } from '../../../../../common/field-types/rating';
import type { OptionsEditorProps } from './props';

const STAR_COUNTS = [3, 4, 5, 6, 7, 8, 9, 10];

export function RatingOptions({ options, onChange }: OptionsEditorProps) {
  const stars = typeof options.max === 'number' && STAR_COUNTS.includes(options.max) ? options.max : RATING_STARS;
  return (
    <TextField
      select
      label="Stars"
      value={stars}
      onChange={(event) => onChange({ ...options, max: Number(event.target.value) })}
      size="small"
      sx={{ minWidth: 120 }}
      data-testid="rating-max"
    >
      {STAR_COUNTS.map((count) => (
        <MenuItem key={count} value={count}>
          {count} stars
        </MenuItem>
      ))}
    </TextField>
  );
}
