import type { TimelineSource } from '../conversations/timeline.js';
import { toMessage } from './message-service.js';

/** Texts and emails sent to a person and their replies, on their timeline (read with the person). */
export const messageEntries: TimelineSource = async (ctx, _user, person, limit) => {
  const rows = await ctx.db
    .selectFrom('messages')
    .selectAll()
    .where('person_type', '=', person.type)
    .where('person_id', '=', person.id)
    .where('status', 'in', ['sent', 'received', 'failed', 'opted_out', 'not_sent', 'queued'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const message = toMessage(row);
    return { kind: 'message', key: `message-${message.id}`, at: message.created_at, record: { ...message } };
  });
};
