import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldError, forbidden, HttpError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { viewsResource } from './views-resource.js';

/** Whose choice a list opens in: the person's own, their role's default, or none (the whole list). */
export type DefaultSource = 'person' | 'role' | null;

/** A view as the records service presents it. */
type View = Awaited<ReturnType<AppContext['records']['show']>>;

/**
 * The view a person's list of a record type opens in (docs/views.md "Default views"), kept by the server: the view
 * they chose themselves (`view_user_defaults`), else their role's default of the type (a view whose
 * `default_role_ids` holds the role: one per role and type, views-resource.ts keepOneDefaultPerRole), else none. A chosen view the
 * person can no longer read (unshared, deleted) is passed over, as if not chosen.
 */
export class DefaultViews {
  constructor(private readonly ctx: AppContext) {}

  /** The record type, as this person may list it; 422 on `record_type` otherwise. */
  private typeOf(user: AuthUser, recordType: string): ResourceDefinition {
    const target = this.ctx.resources.byType(recordType);
    if (!target || target === viewsResource || !this.ctx.records.access.mayRead(user, target))
      throw fieldError('record_type', `There is no record type "${recordType}" you may read.`);
    return target;
  }

  /** The view as the person reads it, or null when they may not (any more). */
  private async readable(user: AuthUser, id: number) {
    try {
      return await this.ctx.records.show(user, viewsResource, id);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  }

  async of(user: AuthUser, recordType: string): Promise<{ view: View | null; source: DefaultSource }> {
    this.typeOf(user, recordType);
    const chosen = await this.ctx.db
      .selectFrom('view_user_defaults')
      .select('view_id')
      .where('user_id', '=', user.id)
      .where('record_type', '=', recordType)
      .executeTakeFirst();
    const own = chosen ? await this.readable(user, chosen.view_id) : null;
    if (own) return { view: own, source: 'person' };
    if (user.role_id === null) return { view: null, source: null };
    const roleDefault = await this.ctx.db
      .selectFrom('view_role_defaults as d')
      .innerJoin('views as v', 'v.id', 'd.view_id')
      .select('v.id')
      .where('d.role_id', '=', user.role_id)
      .where('v.record_type', '=', recordType)
      .where('v.deleted_at', 'is', null)
      .orderBy('v.id', 'desc')
      .executeTakeFirst();
    const role = roleDefault ? await this.readable(user, roleDefault.id) : null;
    return role ? { view: role, source: 'role' } : { view: null, source: null };
  }

  /** The person opens the type's list in this view from now on (a view of that type they read); null: their role's again. */
  async choose(user: AuthUser, recordType: string, viewId: number | null) {
    this.typeOf(user, recordType);
    if (viewId === null) {
      await this.ctx.db
        .deleteFrom('view_user_defaults')
        .where('user_id', '=', user.id)
        .where('record_type', '=', recordType)
        .execute();
      return this.of(user, recordType);
    }
    const view = await this.readable(user, viewId);
    if (!view) throw fieldError('view_id', `No view has the id ${viewId}.`);
    if (view.record_type !== recordType)
      throw fieldError(
        'view_id',
        `The view "${view.name}" shows ${view.record_type} records, not ${recordType} records.`,
      );
    await this.ctx.db
      .insertInto('view_user_defaults')
      .values({ user_id: user.id, record_type: recordType, view_id: viewId })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'record_type']).doUpdateSet({ view_id: viewId, updated_at: new Date() }),
      )
      .execute();
    return { view, source: 'person' as const };
  }

  /**
   * One who manages roles makes a view the default of these roles (all of them: the roles it is the default of
   * after), whoever owns it: a view they read, shared with each of the roles (422 on `view_id` or `role_ids`
   * otherwise). Written by the records service as a system write in the manager's name (the owner alone changes a
   * view: this changes only whose default it is), so the one-default-per-role rule, the revision and the event follow.
   */
  async setRoleDefaults(user: AuthUser, viewId: number, roleIds: number[]) {
    if (!can(user, 'role:update')) throw forbidden("Only those who manage roles set a role's default view.");
    const view = await this.readable(user, viewId);
    if (!view) throw fieldError('view_id', `No view has the id ${viewId}.`);
    const shared = new Set((view.role_ids as number[] | undefined) ?? []);
    const unshared = roleIds.filter((id) => !shared.has(id));
    if (unshared.length)
      throw fieldError(
        'role_ids',
        `The view "${view.name}" is not shared with role ${unshared.join(', ')}: share it with a role before making it the role's default.`,
      );
    const { record } = await this.ctx.records.update(
      user,
      viewsResource,
      viewId,
      { default_role_ids: [...new Set(roleIds)] },
      { system: true },
    );
    return record;
  }
}
