import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';

/**
 * The record type a list-shaped route names (`/api/records/{resource}/groups`, `/board`) and the person, once they may
 * read it: 404 when there is none, 401/403 otherwise. Who may read the list is told before what is wrong with the
 * query, so this comes first.
 */
export function readableType(
  ctx: AppContext,
  user: AuthUser | null,
  resource: string,
): { def: ResourceDefinition; user: AuthUser } {
  const def = ctx.resources.get(resource);
  if (!def) throw notFound(`There is no record type "${resource}".`);
  ctx.records.authorize(user, def, 'read');
  return { def, user };
}
