import type { AppContext } from '../app-context.js';
import { contractorsResource } from '../contractors/contractors-resource.js';
import type { ResourceDefinition } from '../records/resource.js';
import { sitesResource } from '../sites/sites-resource.js';

/**
 * The map reads sites and contractors through the record service's row rules (`visibleRows`): soft delete, and
 * `type` as the permission category (`site:read:union`, `contractor:read:non-union`). These are the definitions
 * the records features register.
 */
export function sitesDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.byType('site') ?? sitesResource;
}

export function contractorsDefinition(ctx: AppContext): ResourceDefinition {
  return ctx.resources.byType('contractor') ?? contractorsResource;
}
