import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS } from './sql.js';

const part = (longest: number) => z.optional(z.nullable(z.string().check(z.maxLength(longest))));
const coordinate = (limit: number) => z.optional(z.nullable(z.number().check(z.minimum(-limit), z.maximum(limit))));
const address = z.strictObject({
  label: part(100),
  street: part(200),
  city: part(100),
  county: part(100),
  state: part(100),
  postal_code: part(20),
  latitude: coordinate(90),
  longitude: coordinate(180),
});

/** A list of addresses: [{label?, street?, city?, county?, state?, postal_code?, latitude?, longitude?}]. */
export const ADDRESSES = z
  .array(address, {
    error: 'The addresses must be a list of {street, city, county, state, postal_code, latitude, longitude}.',
  })
  .check(z.maxLength(50));

type Address = Record<string, unknown>;
const line = (a: Address) =>
  [a.label ? `${a.label}:` : '', a.street, a.city, [a.state, a.postal_code].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(' ');

/** Addresses, each with its parts and coordinates. */
export const addresses = defineFieldType({
  type: 'addresses',
  label: 'Addresses',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'read_only'],
  kind: () => 'json',
  spec: () => ({ sortable: false, shape: ADDRESSES }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: null,
  filterIndex: STANDARD_FILTER_INDEX,
  words: (value) => (Array.isArray(value) ? value.map((a) => line(a as Address)).join('; ') : ''),
  textual: false,
  groupable: false,
});
