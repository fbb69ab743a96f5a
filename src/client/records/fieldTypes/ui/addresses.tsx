import { AddressesValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { LazyAddressesInput } from '../inputs';
import { always, type FieldTypeUI, noNumber, plainHistory } from './define';

/** Addresses: a list of parts; one line each. */
export const addresses: FieldTypeUI = {
  type: 'addresses',
  Input: LazyAddressesInput,
  Value: AddressesValue,
  filters: containsFilter,
  editor: () => null,
  history: plainHistory,
  wide: always,
  structured: always,
  Options: null,
  numberFormat: noNumber,
};
