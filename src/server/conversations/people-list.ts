import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';

/** A people list as it was on screen: its filter values (`q` the search), view filters and saved view. */
export interface PeopleQuery {
  filter?: Record<string, unknown>;
  filters?: unknown;
  view?: unknown;
}

/** Why `value` is no people list query, or null: call lists and messages refuse it under `query`. */
export function peopleQueryError(value: unknown): string | null {
  return value === null || typeof value !== 'object' || Array.isArray(value)
    ? "The list's query must be an object with its filter."
    : null;
}

/**
 * The people a list finds (call lists, texts and emails), as `user` may read them: its query as kept with what was
 * made of it, and the people, each with its id and the `wanted` fields the person may see (one query: records.
 * matchingValues). A list opened through a saved view keeps the view, whose filters hold too (views/saved-view.ts).
 * A list finding nobody, or more than `max` people, is refused under `query`.
 */
export async function peopleOfList(
  records: RecordService,
  user: AuthUser,
  def: ResourceDefinition,
  given: PeopleQuery,
  max: number,
  wanted: readonly string[] = [],
): Promise<{ query: Record<string, unknown>; people: Array<Record<string, unknown> & { id: number }> }> {
  const query: Record<string, unknown> = { filter: given.filter ?? {} };
  if (given.filters !== undefined) query.filters = given.filters;
  if (given.view !== undefined) query.view = given.view;
  const people = await records.matchingValues(user, def, query, wanted, max + 1);
  if (people.length === 0) throw fieldError('query', 'Nobody is on this list: its filters find no one you may read.');
  if (people.length > max)
    throw fieldError('query', `This list finds more than ${max.toLocaleString('en-US')} people; narrow its filters.`);
  return { query, people };
}
