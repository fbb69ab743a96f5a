/** The names a record type and its fields may take. */

export const TYPE_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const FIELD_SLUG_PATTERN = /^[a-z][a-z0-9_]*$/;

/** First path segments of /api that are not record types (a new type may not take them). */
export const RESERVED_RESOURCES = new Set([
  'auth',
  'password',
  'profile',
  'options',
  'system',
  'dashboard',
  'health',
  'revisions',
  'actions',
  'map',
  'reports',
  'assistant',
  'imports',
  'importers',
  'importer-columns',
  'importer-rules',
  'exports',
  'attachments',
  'documents',
  'notes',
  'notifications',
  'tasks',
  'records',
  'schemas',
  'schema-fields',
  'logic-blocks',
  'logic-conditions',
  'logic-actions',
  'broadcasting',
  'sanctum',
  'statistics',
  'files',
]);

/** Column names every table has or the record service owns: never a custom field's slug. */
export const RESERVED_FIELDS = new Set([
  'id',
  'custom',
  'created_at',
  'updated_at',
  'deleted_at',
  'schema_id',
  'attachments',
  'name',
  'user_id',
  'team_id',
  'import_id',
  'type',
]);
