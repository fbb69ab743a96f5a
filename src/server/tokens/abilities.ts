import { z } from 'zod';

/**
 * What a personal access token may do (docs/api.md "Personal access tokens"), as Laravel Sanctum names abilities:
 * `*` everything its person may; `read` / `write` every record type (and the app's other reads or writes);
 * `read:<type>` / `write:<type>` one record type, named as in its URL (`read:sites`). Writing is creating, updating,
 * deleting and restoring. A token never adds to its person's permissions: it only takes away.
 */
export const ability = z
  .string()
  .regex(
    /^(\*|read|write|(read|write):[a-z0-9_-]{1,64})$/,
    'An ability is *, read, write, read:<type> or write:<type>.',
  )
  .meta({ description: '*, read, write, read:<record type> or write:<record type> (the type as in its URL).' });

/** Abilities read from the database or a request: a token made without any may do everything (Sanctum's `["*"]`). */
export type Abilities = readonly string[];

/** The record type a per-type ability names, or null for `*`, `read` and `write`. */
export const abilityType = (held: string): string | null => (held.includes(':') ? held.split(':')[1] : null);

/** May a token with these abilities make writes (any unsafe request) at all? */
export function writes(abilities: Abilities): boolean {
  return abilities.some((held) => held === '*' || held === 'write' || held.startsWith('write:'));
}

/**
 * The person's permissions a token with these abilities keeps. A permission is `entity:action[:category]`
 * (common/permissions.ts); reading is the `read` action, every other action a write. `entityOf` names the permission
 * entity of a record type (`sites` → `site`); a type it does not know keeps nothing.
 */
export function narrowPermissions(
  permissions: readonly string[],
  abilities: Abilities,
  entityOf: (type: string) => string | null,
): string[] {
  if (abilities.includes('*')) return [...permissions];
  const kinds = { read: new Set<string>(), write: new Set<string>() };
  const everything = { read: abilities.includes('read'), write: abilities.includes('write') };
  for (const held of abilities) {
    const type = abilityType(held);
    const entity = type ? entityOf(type) : null;
    if (entity) kinds[held.startsWith('read:') ? 'read' : 'write'].add(entity);
  }
  return permissions.filter((permission) => {
    const [entity, action] = permission.split(':');
    const kind = action === 'read' ? 'read' : 'write';
    return everything[kind] || kinds[kind].has(entity);
  });
}
