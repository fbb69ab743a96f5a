import type { ResourceDefinition } from '../records/resource.js';

export const featuresResource: ResourceDefinition = {
  name: 'features',
  type: 'feature',
  table: 'features',
  singular: 'Feature',
  fields: {
    slug: { kind: 'text', required: true, max: 60 },
    name: { kind: 'text', required: true, max: 100 },
    description: { kind: 'text', max: 1_000 },
    enabled: { kind: 'boolean' },
  },
  search: ['name', 'slug'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: false,
  restorable: false,
};
