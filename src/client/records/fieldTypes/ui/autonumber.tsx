import { lazy } from 'react';
import { TextInput } from 'react-admin';
import { TextValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** The number the record was given, shown and never typed; a new record is numbered when it is saved. */
function AutonumberInput({ descriptor }: InputComponentProps) {
  return (
    <TextInput
      source={descriptor.slug}
      label={descriptor.label}
      disabled
      helperText={descriptor.help ?? 'Given when the record is saved'}
    />
  );
}

/** An autonumber (`INS-0001`): read-only in forms and the grid, found by its text, sorted by its number. */
export const autonumber: FieldTypeUI = {
  type: 'autonumber',
  Input: AutonumberInput,
  Value: TextValue,
  filters: containsFilter,
  editor: () => null,
  history: plainHistory,
  wide: never,
  structured: never,
  Options: lazy(() => import('./options/AutonumberOptions').then((m) => ({ default: m.AutonumberOptions }))),
  numberFormat: noNumber,
};
