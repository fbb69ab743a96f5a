import { RelationValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { RelationFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/**
 * A person: the people picker (the users, searched by name) in forms and the grid, the person's name in lists, a
 * filter by person ("me" is whoever opens the list: `filter[inspector]=me`).
 */
export const person: FieldTypeUI = {
  type: 'person',
  target: 'user',
  Input: RelationFieldInput,
  Value: RelationValue,
  filters: (d) => exactFilter(d, 'reference'),
  editor: () => 'relation',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
