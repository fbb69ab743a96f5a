/**
 * One small table: record type (the singular slug used in permissions and realtime events) <-> the
 * react-admin resource name (the plural /api path). Keep it the only place that knows these pairs.
 */
export const TYPE_RESOURCE_PAIRS: ReadonlyArray<readonly [type: string, resource: string]> = [
  ['action', 'actions'],
  ['assistant-message', 'assistant/messages'],
  ['assistant-thread', 'assistant/threads'],
  ['attachment', 'attachments'],
  ['building-type', 'building-types'],
  ['classification', 'classifications'],
  ['classification-type', 'classification-types'],
  ['contact', 'contacts'],
  ['contact-status', 'contact-statuses'],
  ['contractor', 'contractors'],
  ['contractor-type', 'contractor-types'],
  ['dispatch-type', 'dispatch-types'],
  ['document', 'documents'],
  ['export', 'exports'],
  ['feature', 'features'],
  ['grievance', 'grievances'],
  ['import', 'imports'],
  ['importer', 'importers'],
  ['importer-column', 'importer-columns'],
  ['importer-rule', 'importer-rules'],
  ['logic-action', 'logic-actions'],
  ['logic-block', 'logic-blocks'],
  ['logic-condition', 'logic-conditions'],
  ['member', 'members'],
  ['note', 'notes'],
  ['notification', 'notifications'],
  ['recruit', 'recruits'],
  ['region', 'regions'],
  ['revision', 'revisions'],
  ['role', 'roles'],
  ['schema', 'schemas'],
  ['schema-field', 'schema-fields'],
  ['site', 'sites'],
  ['site-phase', 'site-phases'],
  ['site-status', 'site-statuses'],
  ['site-type', 'site-types'],
  ['tag', 'tags'],
  ['task', 'tasks'],
  ['team', 'teams'],
  ['trade', 'trades'],
  ['union', 'unions'],
  ['user', 'users'],
];

const TYPE_TO_RESOURCE = new Map(TYPE_RESOURCE_PAIRS.map(([type, resource]) => [type, resource]));
const RESOURCE_TO_TYPE = new Map(TYPE_RESOURCE_PAIRS.map(([type, resource]) => [resource, type]));

/** English plural of a slug, for types not in the table ('site-status' -> 'site-statuses'). */
export function pluralizeSlug(slug: string): string {
  if (/(s|x|z|ch|sh)$/.test(slug)) return `${slug}es`;
  if (/[^aeiou]y$/.test(slug)) return `${slug.slice(0, -1)}ies`;
  return `${slug}s`;
}

/** `site` -> `sites`, `schema-field` -> `schema-fields`. */
export function resourceForType(type: string): string {
  return TYPE_TO_RESOURCE.get(type) ?? pluralizeSlug(type);
}

/** `sites` -> `site`; undefined for names that are not record types. */
export function typeForResource(resource: string): string | undefined {
  return RESOURCE_TO_TYPE.get(resource);
}

/** Resources with POST /{id}/restore (SPEC section 7, marked (r)). */
export const RESTORABLE_RESOURCES: ReadonlySet<string> = new Set([
  'assistant/threads',
  'assistant/messages',
  'building-types',
  'contacts',
  'contact-statuses',
  'classifications',
  'classification-types',
  'contractor-types',
  'contractors',
  'dispatch-types',
  'grievances',
  'members',
  'recruits',
  'regions',
  'roles',
  'site-phases',
  'site-statuses',
  'site-types',
  'sites',
  'trades',
  'teams',
  'unions',
]);
