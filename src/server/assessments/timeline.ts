import type { TimelineSource } from '../conversations/timeline.js';

/** A person's assessment changes on their timeline: the history rows, read with the person (the caller checked it). */
export const assessmentEntries: TimelineSource = async (ctx, _user, person, limit) => {
  const rows = await ctx.db
    .selectFrom('assessments as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.level',
      'a.previous_level as from',
      'a.is_leader',
      'a.on_committee',
      'a.assessed_at',
      'a.user_id',
      'a.conversation_id',
      'u.first_name',
      'u.last_name',
    ])
    .where('a.person_type', '=', person.type)
    .where('a.person_id', '=', person.id)
    .orderBy('a.assessed_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ first_name, last_name, ...row }) => ({
    kind: 'assessment',
    key: `assessment-${row.id}`,
    at: new Date(row.assessed_at).toISOString(),
    record: { ...row, user_name: row.user_id ? `${first_name ?? ''} ${last_name ?? ''}`.trim() : null },
  }));
};
