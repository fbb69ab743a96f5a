/**
 * The fields that show when a record was made or last changed and by whom (common/field-types/record-stamps.ts): read
 * from the record, shown in forms as they read, never typed; filtered as dates or as people (`me`), sorted.
 */
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import { useRecordContext } from 'react-admin';
import { formatDateTime } from '../../../i18n/dates';
import { DateTimeValue, RelationValue, type ValueView } from '../displays';
import { exactFilter, rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** The value as it reads, under the field's name: a new record gets it when it is saved. */
function shownInForm(Value: ValueView) {
  return function StampInput({ descriptor }: InputComponentProps) {
    const record = useRecordContext();
    const value = record?.[descriptor.slug];
    return (
      <Stack spacing={0.5} sx={{ mb: 2 }} data-testid={`stamp-${descriptor.slug}`}>
        <FormLabel>{descriptor.label}</FormLabel>
        {value === null || value === undefined ? (
          <FormHelperText>{record?.id ? 'Nobody recorded' : 'Given when the record is saved'}</FormHelperText>
        ) : (
          <span>{Value({ descriptor, value, record, variant: 'show' })}</span>
        )}
      </Stack>
    );
  };
}

const whenType = (type: 'created-at' | 'updated-at'): FieldTypeUI => ({
  type,
  Input: shownInForm(DateTimeValue),
  Value: DateTimeValue,
  filters: (d) => rangeFilters(d, 'date'),
  editor: () => null,
  history: (value) => formatDateTime(String(value)),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
});

const whoType = (type: 'created-by' | 'updated-by'): FieldTypeUI => ({
  type,
  target: 'user',
  Input: shownInForm(RelationValue),
  Value: RelationValue,
  filters: (d) => exactFilter(d, 'reference'),
  editor: () => null,
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
});

export const createdAt = whenType('created-at');
export const updatedAt = whenType('updated-at');
export const createdBy = whoType('created-by');
export const updatedBy = whoType('updated-by');
