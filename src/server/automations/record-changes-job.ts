import type { AppContext } from '../app-context.js';
import type { JobContext } from '../jobs/worker.js';
import { pendingRecordChanges, takeRecordChanges } from '../records/record-changes.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { AutomationTriggers } from './automation-triggers.js';

/** Changes taken from the outbox per transaction. */
const CHANGES_PER_BATCH = 500;

/**
 * The `record-changes` job (records/record-changes.ts): takes committed record changes from the outbox a batch at a
 * time and, in the transaction that deletes them, writes the automation runs and webhook messages they set off, so
 * each change is acted on once, whatever stops the process. What to write is worked out first, outside that
 * transaction; a change another worker took meanwhile is left to it. Goes on until the outbox is empty.
 */
export async function actOnRecordChanges(
  ctx: AppContext,
  triggers: AutomationTriggers,
  webhooks: WebhookService,
  job: JobContext,
): Promise<void> {
  for (;;) {
    const changes = await pendingRecordChanges(ctx.db, CHANGES_PER_BATCH);
    if (!changes.length) return;
    const runs = await triggers.plan(changes);
    const messages = await webhooks.plan(changes);
    await ctx.db.transaction().execute(async (trx) => {
      await job.holdClaim(trx);
      const taken = await takeRecordChanges(
        trx,
        changes.map((change) => change.id),
      );
      await triggers.write(
        trx,
        runs.filter((run) => run.changeId !== null && taken.has(run.changeId)),
      );
      await webhooks.deliveries.enqueueMany(
        trx,
        messages.filter((message) => taken.has(message.changeId)).map((message) => message.delivery),
      );
    });
    if (changes.length < CHANGES_PER_BATCH) return;
    await job.heartbeat();
  }
}
