import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { notificationsResource } from './work-resources.js';

export const shareBody = z
  .object({
    user_id: z.coerce.number().int().positive().optional().nullable(),
    user_ids: z.array(z.coerce.number().int().positive()).max(500).optional(),
    team_id: z.coerce.number().int().positive().optional().nullable(),
    team_ids: z.array(z.coerce.number().int().positive()).max(100).optional(),
    message: z.string().trim().max(2_000).optional().nullable(),
  })
  .strict();

/**
 * POST /api/{sites|contractors}/{id}/share: tells the chosen people, and every member of the chosen teams, about
 * the record with a notification (each on their own channel). The sharer must be able to read the record; they
 * are not notified themselves.
 */
export async function shareRecord(
  ctx: AppContext,
  user: AuthUser,
  def: ResourceDefinition,
  id: number,
  body: z.infer<typeof shareBody>,
) {
  const record = await ctx.records.show(user, def, id);
  const userIds = [...(body.user_ids ?? []), ...(body.user_id ? [body.user_id] : [])];
  const teamIds = [...(body.team_ids ?? []), ...(body.team_id ? [body.team_id] : [])];
  if (!userIds.length && !teamIds.length) throw fieldError('user_id', 'Choose a person or a team to share with.');

  const people = userIds.length
    ? await ctx.db.selectFrom('users').select('id').where('id', 'in', userIds).where('deleted_at', 'is', null).execute()
    : [];
  if (people.length !== new Set(userIds).size) throw fieldError('user_id', 'A selected person does not exist.');
  let members: number[] = [];
  if (teamIds.length) {
    const teams = await ctx.db
      .selectFrom('teams')
      .select('id')
      .where('id', 'in', teamIds)
      .where('deleted_at', 'is', null)
      .execute();
    if (teams.length !== new Set(teamIds).size) throw fieldError('team_id', 'A selected team does not exist.');
    const rows = await ctx.db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('u.team_id', 'in', teamIds),
          eb('u.id', 'in', eb.selectFrom('team_user').select('user_id').where('team_id', 'in', teamIds)),
        ]),
      )
      .execute();
    members = rows.map((r) => r.id);
  }
  const recipients = [...new Set([...people.map((p) => p.id), ...members])].filter(
    (recipient) => recipient !== user.id,
  );

  const name = await ctx.records.nameOf(def);
  const label = record.name ?? record.title ?? `#${record.id}`;
  for (const recipient of recipients) {
    await ctx.records.create(
      user,
      notificationsResource,
      {
        user_id: recipient,
        title: `${user.name} shared a ${name.toLowerCase()} with you: ${label}`.slice(0, 300),
        body: body.message || null,
        link: `/${def.name}/${record.id}/show`,
        data: { type: def.type, id: record.id, shared_by: user.id },
      },
      { system: true },
    );
  }
  return { data: { notified: recipients.length, user_ids: recipients }, message: `${name} shared successfully.` };
}

export const shareAnswer = z.object({
  data: z.object({ notified: z.number().int(), user_ids: z.array(z.number().int()) }),
  message: z.string(),
});
