import type { AppContext } from '../app-context.js';
import { assessmentEntries } from '../assessments/timeline.js';
import type { AuthUser } from '../auth/auth-user.js';
import { messageEntries } from '../messages/timeline.js';
import { canRead } from '../reports/scope.js';
import { conversationsResource } from './conversations-resource.js';
import { type PersonType, personField, personResource } from './people.js';

export interface TimelineEntry {
  kind: string;
  /** Unique in the timeline: the kind and the record's id. */
  key: string;
  at: string;
  record: Record<string, unknown>;
}

export interface Person {
  type: PersonType;
  id: number;
}

/** One kind of entry of a person's timeline, read as `user` may read it, newest first, at most `limit`. */
export type TimelineSource = (
  ctx: AppContext,
  user: AuthUser,
  person: Person,
  limit: number,
) => Promise<TimelineEntry[]>;

const at = (value: unknown) => new Date(value as string).toISOString();

/** A list read through the data service (its permission and row rules), as entries. */
async function listed(
  ctx: AppContext,
  user: AuthUser,
  resource: string,
  kind: string,
  filter: Record<string, unknown>,
  sort: string,
  limit: number,
): Promise<TimelineEntry[]> {
  const def = ctx.resources.get(resource);
  if (!def || !canRead(user, def)) return [];
  const { data } = await ctx.records.list(user, def, {
    filter: JSON.stringify(filter),
    sort,
    order: 'desc',
    per_page: String(limit),
  });
  return data.map((record) => ({ kind, key: `${kind}-${record.id}`, at: at(record[sort]), record }));
}

const conversations: TimelineSource = (ctx, user, person, limit) =>
  listed(
    ctx,
    user,
    conversationsResource.name,
    'conversation',
    { [personField(person.type)]: person.id },
    'had_at',
    limit,
  );

/** Cards signed name contacts and recruits (docs/campaigns.md); who signed is read only with `campaign-card:read`. */
const cards: TimelineSource = (ctx, user, person, limit) =>
  person.type === 'member'
    ? Promise.resolve([])
    : listed(ctx, user, 'campaign-cards', 'card', { [personField(person.type)]: person.id }, 'signed_on', limit);

/** What a person's timeline is made of. */
export const TIMELINE_SOURCES: TimelineSource[] = [conversations, assessmentEntries, cards, messageEntries];

/**
 * `GET /api/{contacts|recruits|members}/{id}/timeline`: everything that happened with a person, newest first: every
 * conversation, assessment change, card signed and message, each kind read through its own read rules, so a reader
 * sees what they may read of it. The person must be one the reader may read (404 otherwise).
 */
export async function timelineOf(ctx: AppContext, user: AuthUser, person: Person, limit = 200) {
  const def = ctx.resources.get(personResource(person.type))!;
  await ctx.records.show(user, def, person.id);
  const entries = (await Promise.all(TIMELINE_SOURCES.map((source) => source(ctx, user, person, limit)))).flat();
  entries.sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key));
  return entries.slice(0, limit);
}
