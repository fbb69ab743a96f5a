import type { ResourceDefinition } from '../records/resource.js';
import { builtinType } from '../schemas/builtin-types.js';

/** Feature flags (fields: schemas/fixed/feature.json). */
export const featuresResource: ResourceDefinition = builtinType('feature', {
  table: 'features',
  search: ['name', 'slug'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: false,
});
