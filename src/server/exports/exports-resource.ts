import type { ResourceDefinition } from '../records/resource.js';

/** Background exports: a person sees their own; created by GET /api/exports/download and POST /api/exports (exports/export-routes.ts). */
export const exportsResource: ResourceDefinition = {
  name: 'exports',
  type: 'export',
  table: 'exports',
  singular: 'Export',
  ownerColumn: 'user_id',
  fields: {
    resource: { kind: 'text', max: 80 },
    status: { kind: 'enum', options: ['pending', 'processing', 'complete', 'failed'] },
    file_name: { kind: 'text', max: 200, label: 'file name' },
    row_count: { kind: 'integer', label: 'rows' },
    // Declared so the access policy's "own" rule finds whose export it is.
    user_id: { kind: 'integer', min: 1, label: 'owner' },
  },
  readOnly: [
    'params',
    'columns',
    'status',
    'row_count',
    'message',
    'finished_at',
    'user_id',
    'download_url',
    'resource',
    'file_name',
  ],
  hidden: ['storage_path'],
  defaultSort: { field: 'created_at', order: 'desc' },
  softDelete: false,
  restorable: false,
  // list and show are served by exports/export-routes.ts: whoever may export may see their own exports.
  ownRoutes: ['create', 'update', 'list', 'show'],
  hooks: {
    async present(records) {
      for (const record of records)
        record.download_url = record.status === 'complete' ? `/api/exports/${record.id}/download` : null;
    },
  },
};
