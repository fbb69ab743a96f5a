import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Rating from '@mui/material/Rating';
import { lazy } from 'react';
import { required, useInput } from 'react-admin';
import { RATING_STARS } from '../../../../common/field-types/rating';
import type { FieldDescriptor } from '../describe';
import type { ValueView } from '../displays';
import { rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never } from './define';

const starsOf = (d: FieldDescriptor) => d.max ?? RATING_STARS;

/** Stars to click (a second click on the chosen star clears it); the arrow keys move along them. */
function RatingInput({ descriptor }: InputComponentProps) {
  const { field, fieldState } = useInput({
    source: descriptor.slug,
    validate: descriptor.required ? required() : undefined,
    parse: (value: number | null) => value ?? null,
  });
  const error = fieldState.error?.message;
  return (
    <Box sx={{ mb: 2 }}>
      <FormLabel component="legend" id={`${descriptor.slug}-label`} required={descriptor.required}>
        {descriptor.label}
      </FormLabel>
      <Rating
        name={descriptor.slug}
        value={typeof field.value === 'number' ? field.value : null}
        max={starsOf(descriptor)}
        readOnly={descriptor.readOnly}
        onChange={(_event, value) => field.onChange(value)}
        onBlur={field.onBlur}
        aria-labelledby={`${descriptor.slug}-label`}
      />
      {error || descriptor.help ? (
        <FormHelperText error={Boolean(error)}>{error ?? descriptor.help}</FormHelperText>
      ) : null}
    </Box>
  );
}

const RatingValue: ValueView = ({ descriptor, value, variant }) =>
  typeof value === 'number' ? (
    <Rating
      value={value}
      max={starsOf(descriptor)}
      readOnly
      size={variant === 'list' ? 'small' : 'medium'}
      aria-label={`${value} of ${starsOf(descriptor)}`}
    />
  ) : null;

/** A rating: stars in forms and lists, a number in the grid's editor and filters ("4 of 5" in the history). */
export const rating: FieldTypeUI = {
  type: 'rating',
  Input: RatingInput,
  Value: RatingValue,
  filters: (d) => rangeFilters(d, 'number'),
  editor: () => 'number',
  history: (value, d) => (typeof value === 'number' ? `${value} of ${starsOf(d)}` : String(value)),
  wide: never,
  structured: never,
  Options: lazy(() => import('./options/RatingOptions').then((m) => ({ default: m.RatingOptions }))),
  numberFormat: () => 'integer',
};
