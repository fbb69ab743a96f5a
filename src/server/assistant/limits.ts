import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden, HttpError } from '../http/errors.js';

/** Whether the assistant feature is on (it is when no switch exists). */
export async function assistantEnabled(app: AppContext): Promise<boolean> {
  const feature = await app.db
    .selectFrom('features')
    .select('enabled')
    .where('slug', '=', 'assistant')
    .executeTakeFirst();
  return !feature || Boolean(feature.enabled);
}

/** Refuses (403) while the assistant feature is switched off. */
export async function assertEnabled(app: AppContext) {
  if (!(await assistantEnabled(app))) throw forbidden('The assistant is switched off.');
}

/**
 * The assistant's limits, counted from the messages themselves so every server process agrees: questions per person
 * per minute (ASSISTANT_MESSAGES_PER_MINUTE) and model tokens per person per day by role (ASSISTANT_DAILY_TOKENS).
 */
export async function assertMayAsk(app: AppContext, user: AuthUser) {
  const perMinute = app.config.assistant.messagesPerMinute;
  const since = new Date(Date.now() - 60_000);
  const recent = await app.db
    .selectFrom('assistant_messages')
    .select([sql<number>`count(*)::int`.as('n'), sql<Date>`min(created_at)`.as('oldest')])
    .where('user_id', '=', user.id)
    .where('role', '=', 'user')
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  if (recent.n >= perMinute) {
    const wait = Math.max(1, Math.ceil((new Date(recent.oldest).getTime() + 60_000 - Date.now()) / 1000));
    throw new HttpError(
      429,
      `You have asked ${perMinute} questions in the last minute. Please wait ${wait} second${wait === 1 ? '' : 's'}.`,
      { 'Retry-After': String(wait) },
    );
  }
}

/** The model tokens a person may use per day (UTC), by their role; undefined when there is no limit. */
export function dailyTokenLimit(app: AppContext, user: AuthUser): number | undefined {
  const limits = app.config.assistant.dailyTokens;
  const slug = user.role?.slug ?? '';
  return limits[slug] ?? limits['*'];
}

export async function tokensUsedToday(app: AppContext, user: AuthUser): Promise<number> {
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const row = await app.db
    .selectFrom('assistant_messages')
    .select(sql<number>`coalesce(sum(prompt_tokens + completion_tokens), 0)::int`.as('n'))
    .where('user_id', '=', user.id)
    .where('created_at', '>=', today)
    .executeTakeFirstOrThrow();
  return row.n;
}
