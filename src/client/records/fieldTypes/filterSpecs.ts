/** The list filters the field types offer (the filter bar), by the list query's operators (docs/api.md). */
import type { FieldDescriptor, FilterSpec } from './describe';

/** Contains the text: `slug_like`. */
export const containsFilter = (d: FieldDescriptor): FilterSpec[] => [
  { source: `${d.slug}_like`, kind: 'text', label: d.label },
];

/** From and to: `slug_gte`, `slug_lte`. */
export const rangeFilters = (d: FieldDescriptor, kind: 'number' | 'date'): FilterSpec[] => [
  { source: `${d.slug}_gte`, kind: kind === 'number' ? 'number-from' : 'date-from', label: `${d.label} from` },
  { source: `${d.slug}_lte`, kind: kind === 'number' ? 'number-to' : 'date-to', label: `${d.label} to` },
];

/** Equal to one value: `slug`. */
export const exactFilter = (
  d: FieldDescriptor,
  kind: 'boolean' | 'select' | 'reference' | 'reference-text',
): FilterSpec[] => [{ source: d.slug, kind, label: d.label }];
