import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { pageMetaOf } from '../http/contracts.js';
import { fieldError, forbidden, notFound } from '../http/errors.js';
import type { RecordChange } from '../records/record-changes.js';
import type { ResourceDefinition } from '../records/resource.js';
import type { NewDelivery, WebhookDeliveries } from './deliveries.js';
import { newSecret } from './signing.js';

export const WEBHOOK_EVENTS = ['created', 'updated', 'deleted'] as const;

/** POST /api/webhooks and PATCH (every field optional there). */
export const webhookBody = z.object({
  name: z.string().trim().min(1).max(200),
  url: z.string().trim().min(1).max(2_000),
  record_type: z.string().trim().min(1).max(100),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(3),
});
export const webhookPatch = webhookBody.partial();

/** A webhook as the bus listener keeps it. */
interface KeptWebhook {
  id: number;
  url: string;
  events: string[];
  owner_id: number;
}

const COLUMNS = [
  'id',
  'name',
  'url',
  'record_type',
  'events',
  'owner_id',
  'failures',
  'paused_at',
  'created_at',
  'updated_at',
] as const;

/** A restore is an update to a receiver. */
const kindOf = (change: RecordChange) => (change.event === 'restored' ? 'updated' : change.event);

/** How long the webhooks of a record type are kept in memory (other processes' changes show within this). */
const KEPT_MS = 5_000;

/**
 * Outgoing webhooks (docs/webhooks.md): made and read by those holding `webhook:*` permissions; each event of its
 * record type and kinds becomes a signed message whose record is masked by the webhook owner's field rules and sent
 * only when the owner may read it.
 */
export class WebhookService {
  private kept = new Map<string, { at: number; hooks: Promise<KeptWebhook[]> }>();
  private owners = new Map<number, { at: number; user: Promise<AuthUser | null> }>();

  constructor(
    private readonly ctx: AppContext,
    readonly deliveries: WebhookDeliveries,
  ) {
    deliveries.onPaused = () => this.kept.clear();
  }

  private check(user: AuthUser, action: 'create' | 'read' | 'update' | 'delete') {
    if (!can(user, `webhook:${action}`)) throw forbidden('You do not have permission to manage webhooks.');
  }

  async list(user: AuthUser) {
    this.check(user, 'read');
    return this.ctx.db.selectFrom('webhooks').select(COLUMNS).where('deleted_at', 'is', null).orderBy('id').execute();
  }

  async show(user: AuthUser, id: number) {
    this.check(user, 'read');
    const row = await this.ctx.db
      .selectFrom('webhooks')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(`No webhook has the id ${id}.`);
    return row;
  }

  /** A new webhook, answered with its secret: the only time it is shown. */
  async create(user: AuthUser, body: z.infer<typeof webhookBody>) {
    this.check(user, 'create');
    this.checkValues(body);
    const secret = newSecret();
    const row = await this.ctx.db
      .insertInto('webhooks')
      .values({ ...body, events: JSON.stringify(body.events), secret, owner_id: user.id })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    this.kept.clear();
    return { ...row, secret };
  }

  async update(user: AuthUser, id: number, body: z.infer<typeof webhookPatch>) {
    this.check(user, 'update');
    await this.show(user, id);
    this.checkValues(body);
    const row = await this.ctx.db
      .updateTable('webhooks')
      .set({ ...body, ...(body.events ? { events: JSON.stringify(body.events) } : {}), updated_at: new Date() })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    this.kept.clear();
    return row;
  }

  async remove(user: AuthUser, id: number) {
    this.check(user, 'delete');
    await this.show(user, id);
    await this.ctx.db.updateTable('webhooks').set({ deleted_at: new Date() }).where('id', '=', id).execute();
    this.kept.clear();
  }

  /** Sends again: failures forgotten, and the messages held while it was paused queued again. */
  async resume(user: AuthUser, id: number) {
    this.check(user, 'update');
    await this.show(user, id);
    const db: Kysely<DB> = this.ctx.db;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('webhooks').set({ paused_at: null, failures: 0 }).where('id', '=', id).execute();
      const held = await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: new Date() })
        .where('webhook_id', '=', id)
        .where('status', '=', 'paused')
        .returning('id')
        .execute();
      for (const row of held) await this.deliveries.requeue(trx, Number(row.id));
    });
    this.kept.clear();
    return this.show(user, id);
  }

  async deliveryPage(user: AuthUser, id: number, page: number, perPage: number) {
    await this.show(user, id);
    const base = this.ctx.db.selectFrom('webhook_deliveries').where('webhook_id', '=', id);
    const counted = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const data = await base
      .select([
        'id',
        'message_id',
        'event',
        'status',
        'attempts',
        'response_status',
        'response_ms',
        'error',
        'created_at',
        'last_attempt_at',
        'next_attempt_at',
        'delivered_at',
      ])
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const total = Number(counted.n);
    return {
      data: data.map((row) => ({ ...row, id: Number(row.id) })),
      meta: pageMetaOf(page, perPage, total, data.length),
    };
  }

  private checkValues(body: Partial<z.infer<typeof webhookBody>>) {
    if (body.url !== undefined) {
      const problem = this.deliveries.addresses.problem(body.url);
      if (problem) throw fieldError('url', problem);
    }
    if (body.record_type !== undefined && !this.ctx.resources.byType(body.record_type))
      throw fieldError('record_type', `There is no record type "${body.record_type}".`);
  }

  /**
   * The messages these committed record changes (from the outbox) make: one per webhook listening for the change's
   * kind, with the record as the webhook's owner reads it (their field rules), and none when they may not read it.
   * Worked out before the transaction that takes the changes (records/record-changes.ts).
   */
  async plan(changes: readonly RecordChange[]): Promise<Array<{ changeId: number; delivery: NewDelivery }>> {
    const planned: Array<{ changeId: number; delivery: NewDelivery }> = [];
    const { records } = this.ctx;
    for (const type of new Set(changes.map((change) => change.record_type))) {
      const def = this.ctx.resources.byType(type);
      const hooks = await this.webhooksOf(type);
      if (!def || !hooks.length) continue;
      const ofType = changes.filter((change) => change.record_type === type);
      const current = await this.currentRecords(
        def,
        ofType.filter((change) => change.event !== 'deleted').map((change) => change.record_id),
      );
      for (const hook of hooks) {
        const kinds = ofType.filter((change) => hook.events.includes(kindOf(change)));
        const owner = kinds.length ? await this.owner(hook.owner_id) : null;
        if (!owner || !can(owner, `${def.permission ?? def.type}:read`, Boolean(def.categoryColumn))) continue;
        const readable = await records.access.admitted(
          records.db,
          def,
          owner,
          kinds.filter((change) => change.event !== 'deleted').map((change) => change.record_id),
        );
        for (const change of kinds) {
          const deleted = change.event === 'deleted';
          const record = deleted ? (change.record ?? { id: change.record_id }) : current.get(change.record_id);
          if (!record || (!deleted && !readable.has(change.record_id))) continue;
          planned.push({
            changeId: change.id,
            delivery: {
              webhookId: hook.id,
              event: `${type}.${kindOf(change)}`,
              url: hook.url,
              data: await records.readerCopy(owner, def, record),
            },
          });
        }
      }
    }
    return planned;
  }

  /** The records as they are now (the trashed too: a change may be followed by a deletion), by id. */
  private async currentRecords(def: ResourceDefinition, ids: readonly number[]) {
    if (!ids.length) return new Map<number, Record<string, any>>();
    const rows = await this.ctx.db
      .selectFrom(def.table as 'sites')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const presented = await this.ctx.records.present(def, rows as Record<string, any>[]);
    return new Map(presented.map((record) => [Number(record.id), record]));
  }

  private webhooksOf(type: string): Promise<KeptWebhook[]> {
    const kept = this.kept.get(type);
    if (kept && Date.now() - kept.at < KEPT_MS) return kept.hooks;
    const hooks = this.ctx.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'events', 'owner_id'])
      .where('record_type', '=', type)
      .where('deleted_at', 'is', null)
      .where('paused_at', 'is', null)
      .execute() as Promise<KeptWebhook[]>;
    this.kept.set(type, { at: Date.now(), hooks });
    hooks.catch(() => this.kept.delete(type));
    return hooks;
  }

  private owner(id: number) {
    const kept = this.owners.get(id);
    if (kept && Date.now() - kept.at < KEPT_MS) return kept.user;
    const user = loadAuthUser(this.ctx.db, id);
    this.owners.set(id, { at: Date.now(), user });
    return user;
  }
}
