import { sql } from 'kysely';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { WriteUnit } from '../records/record-service.js';

/**
 * A conversation found the person at `level`: their assessment becomes it, through the data service in the
 * conversation's transaction (the person's revision and the history row), and the history row names the conversation.
 * Nothing is written when the level is the one they already have.
 */
export async function assessFromConversation(
  ctx: AppContext,
  user: AuthUser,
  unit: WriteUnit,
  person: { type: string; id: number },
  level: string,
  conversationId: number,
) {
  const def = ctx.resources.get(`${person.type}s`);
  if (!def) return;
  const current = await (await ctx.records.visibleRows(unit.trx, def, user))
    .select('t.assessment')
    .where('t.id', '=', person.id)
    .executeTakeFirst();
  if (!current || current.assessment === level) return;
  if (!can(user, `${person.type}:update`))
    throw fieldError('assessment', `You can't change a ${person.type}'s assessment. Ask an administrator.`);
  await ctx.records.update(user, def, person.id, { assessment: level }, { unit });
  await unit.trx
    .updateTable('assessments')
    .set({ conversation_id: conversationId })
    .where(
      'id',
      '=',
      sql<number>`(select max(a.id) from assessments a where a.person_type = ${person.type} and a.person_id = ${person.id})`,
    )
    .execute();
}
