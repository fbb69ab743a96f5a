import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import {
  claimJob,
  claimJobs,
  enqueueJob,
  heartbeat,
  holdsClaim,
  requeueAbandoned,
} from '../../src/server/jobs/queue.js';
import { ClaimLost, JobWorker } from '../../src/server/jobs/worker.js';
import { fixture, importerId, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, testDatabaseUrl } from '../support/test-app.js';

/**
 * The job queue across processes (docs/operations.md "Jobs"): a job whose process died is taken up again at once, a
 * stuck one after a back-off, one that stopped on every attempt is given up with a reason its import shows, and a
 * worker that lost its claim can neither heartbeat nor commit.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
const db = () => t.ctx.db;

async function runningJob(lockedBy: string, lockedSecondsAgo: number, attempts = 1) {
  const id = await enqueueJob(db(), 'test-requeue', {});
  await db()
    .updateTable('jobs')
    .set({
      status: 'running',
      locked_by: lockedBy,
      locked_at: new Date(Date.now() - lockedSecondsAgo * 1000),
      attempts,
    })
    .where('id', '=', id)
    .execute();
  return id;
}
const jobRow = (id: number) => db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('jobs left running by another process', () => {
  it('requeues a dead process’s job at once, a silent one after a back-off, and leaves a live one alone', async () => {
    const dead = await runningJob(`${os.hostname()}:999999999`, 1);
    const silent = await runningJob('another-host:42', 600, 2);
    const live = await runningJob('another-host:43', 5);
    expect(await requeueAbandoned(db(), { workerId: 'this-host:1', staleAfterSeconds: 120 })).toBe(2);

    const deadRow = await jobRow(dead);
    expect(deadRow).toMatchObject({ status: 'queued', locked_by: null, error: 'The process running it stopped.' });
    expect(new Date(deadRow.run_at).getTime()).toBeLessThanOrEqual(Date.now() + 1_000);

    const silentRow = await jobRow(silent);
    expect(silentRow).toMatchObject({ status: 'queued', error: 'It gave no sign of life for 120 s.' });
    const delay = new Date(silentRow.run_at).getTime() - Date.now();
    expect(delay).toBeGreaterThan(15_000); // 2^2 × 5 s = 20 s
    expect(delay).toBeLessThanOrEqual(21_000);

    expect((await jobRow(live)).status).toBe('running');
    await db().deleteFrom('jobs').where('type', '=', 'test-requeue').execute();
  });

  it('gives up a job that stopped on every attempt, and its import says why', async () => {
    await seedReadyMadeImporters(db());
    const admin = await t.admin();
    const res = await upload(t, admin, '/api/imports', { importer_id: await importerId(t, 'vendor-job-sites') }, [
      { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
    ]);
    expect(res.status).toBe(201);
    const job = await db()
      .selectFrom('jobs')
      .select('id')
      .where('type', '=', 'import')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // As after five processes died holding it: used up, and requeued by the last requeue.
    await db()
      .updateTable('jobs')
      .set({ attempts: 5, max_attempts: 5, error: 'The process running it stopped.' })
      .where('id', '=', job.id)
      .execute();
    await t.app.jobs.drain();

    expect(await jobRow(job.id)).toMatchObject({ status: 'failed' });
    expect((await jobRow(job.id)).error).toMatch(
      /stopped before finishing on each of 5 attempts \(last: The process running it stopped\.\)/,
    );
    const failed = (await admin.get(`/api/imports/${res.body.data.id}`)).body.data;
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/^The import stopped: It stopped before finishing on each of 5 attempts/);
  });

  it('a worker whose job was taken over can neither heartbeat nor commit a step', async () => {
    const id = await enqueueJob(db(), 'test-claim', {});
    const claimed = await claimJob(db(), 'worker-a', ['test-claim']);
    expect(claimed?.id).toBe(id);
    expect(await heartbeat(db(), id, { row: 10 }, 'worker-a')).toBe(true);
    await db()
      .transaction()
      .execute(async (trx) => expect(await holdsClaim(trx, id, 'worker-a')).toBe(true));

    // Taken for dead and claimed by another worker.
    await db().updateTable('jobs').set({ locked_by: 'worker-b' }).where('id', '=', id).execute();
    expect(await heartbeat(db(), id, { row: 20 }, 'worker-a')).toBe(false);
    await db()
      .transaction()
      .execute(async (trx) => expect(await holdsClaim(trx, id, 'worker-a')).toBe(false));

    // Through the worker: the handler's step is refused, the job row is left to its new holder.
    const worker = new JobWorker({ db: db(), workerId: 'worker-c', singleProcess: true });
    let refused: unknown;
    worker.register('test-claim-2', async (_payload, job) => {
      await db().updateTable('jobs').set({ locked_by: 'worker-d' }).where('id', '=', job.job.id).execute();
      try {
        await db()
          .transaction()
          .execute((trx) => job.holdClaim(trx));
      } catch (error) {
        refused = error;
        throw error;
      }
    });
    const second = await enqueueJob(db(), 'test-claim-2', {});
    await worker.drain();
    expect(refused).toBeInstanceOf(ClaimLost);
    expect(await jobRow(second)).toMatchObject({ status: 'running', locked_by: 'worker-d' });
    await db().deleteFrom('jobs').where('type', 'in', ['test-claim', 'test-claim-2']).execute();
  });
});

describe('jobs run in batches', () => {
  it('claims up to `batch` due jobs of a type in one statement, hands them over at once and finishes them together', async () => {
    const worker = new JobWorker({ db: db(), workerId: 'batch-host:1' });
    const calls: number[][] = [];
    const held: boolean[] = [];
    worker.registerBatch(
      'test-batch',
      async (payloads, job) => {
        calls.push(payloads.map((payload) => payload.n));
        expect(job.jobs.map((claimed) => claimed.payload)).toEqual(payloads);
        await db()
          .transaction()
          .execute(async (trx) =>
            held.push(
              await holdsClaim(
                trx,
                job.jobs.map((claimed) => claimed.id),
                'batch-host:1',
              ),
            ),
          );
        if (payloads.some((payload) => payload.n === 4)) throw new Error('the second batch fails');
      },
      { batch: 3 },
    );
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await enqueueJob(db(), 'test-batch', { n }, { maxAttempts: 1 }));
    expect(await worker.drain()).toBe(2); // 3 at once, then the other 2
    expect(calls).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    expect(held).toEqual([true, true]);
    const rows = await Promise.all(ids.map(jobRow));
    // A batch succeeds or fails as one.
    expect(rows.map((row) => row.status)).toEqual(['done', 'done', 'done', 'failed', 'failed']);
    expect(rows[3].error).toBe('the second batch fails');
    await db().deleteFrom('jobs').where('type', '=', 'test-batch').execute();
  });

  it('a claim takes the oldest due job of any type, and only its type into the batch', async () => {
    const first = await enqueueJob(db(), 'test-batch-a', {}, { runAt: new Date(Date.now() - 60_000) });
    const second = await enqueueJob(db(), 'test-batch-b', {}, { runAt: new Date(Date.now() - 30_000) });
    const third = await enqueueJob(db(), 'test-batch-a', {});
    const claimed = await claimJobs(db(), 'batch-host:2', { 'test-batch-a': 5, 'test-batch-b': 5 });
    expect(claimed.map((job) => job.id)).toEqual([first, third]);
    expect(claimed.every((job) => job.status === 'running' && job.locked_by === 'batch-host:2')).toBe(true);
    expect((await jobRow(second)).status).toBe('queued');
    expect(await heartbeat(db(), [first, third], undefined, 'batch-host:2')).toBe(true);
    expect(await heartbeat(db(), [first, second], undefined, 'batch-host:2')).toBe(false);
    await db().deleteFrom('jobs').where('type', 'in', ['test-batch-a', 'test-batch-b']).execute();
  });
});

describe('a held-back worker takes turns', () => {
  it('after each hold-back, claims every due type once (a full batch again) and so carries a change through its stages', async () => {
    const seen: string[] = [];
    // The database always busy with people's requests: each claim would wait the whole hold-back; a mark per wait.
    const demand = {
      get waiting() {
        if (seen.at(-1) !== '|') seen.push('|');
        return 1;
      },
      lastSentAt: performance.now(),
    };
    const worker = new JobWorker({ db: db(), workerId: 'turn-host:1', demand, holdBackMs: 30, pollMs: 20 });
    worker.register('test-turn-changes', async () => {
      seen.push('changes');
      for (let n = 0; n < 3; n++) await enqueueJob(db(), 'test-turn-runs', { n });
    });
    worker.registerBatch(
      'test-turn-runs',
      async (payloads) => {
        seen.push(`runs ${payloads.length}`);
        for (const payload of payloads) await enqueueJob(db(), 'test-turn-send', payload);
      },
      { batch: 2 },
    );
    worker.registerBatch('test-turn-send', async (payloads) => void seen.push(`send ${payloads.length}`), {
      batch: 8,
    });
    worker.register('test-turn-single', async () => void seen.push('single'));
    await enqueueJob(db(), 'test-turn-changes', {}, { runAt: new Date(Date.now() - 2_000) });
    for (let n = 0; n < 3; n++)
      await enqueueJob(db(), 'test-turn-single', { n }, { runAt: new Date(Date.now() - 1_000 + n) });
    await worker.start();
    try {
      await expect.poll(() => seen.filter((step) => step === 'single').length, { timeout: 20_000 }).toBe(3);
    } finally {
      await worker.stop();
    }
    // One turn: the change, the oldest single job, the runs it queued (a full batch, then the rest) and their
    // messages; each other single job in a turn of its own.
    expect(seen.join(' ').replace(/( \|)+$/, '')).toBe('| changes single runs 2 runs 1 send 3 | single | single');
    await db().deleteFrom('jobs').where('type', 'like', 'test-turn-%').execute();
  });
});

describe.skipIf(Boolean(testDatabaseUrl()))('a job that holds the embedded database', () => {
  const mark = (what: string) => sql`insert into test_hold_marks (what) values (${what})`.execute(db());
  /** A person's request writing `what` once it arrives; its statement is made outside the job's work. */
  const request = (what: string) => {
    let arrive!: () => void;
    const done = new Promise<void>((resolve) => (arrive = resolve)).then(() => mark(what));
    return { arrive, done };
  };

  it.each([
    ['holding it', true, ['job 1', 'job 2', 'request']],
    ['not holding it', false, ['job 1', 'request', 'job 2']],
  ])('%s, a request sent while it works runs after its statements, not between them', async (_label, holds, order) => {
    await sql`create table if not exists test_hold_marks (seq serial primary key, what text)`.execute(db());
    await sql`truncate test_hold_marks`.execute(db());
    const person = request('request');
    const worker = new JobWorker({
      db: db(),
      workerId: 'hold-host:1',
      hold: t.ctx.database.hold?.bind(t.ctx.database),
    });
    worker.register(
      'test-hold',
      async () => {
        await mark('job 1');
        person.arrive();
        await new Promise((resolve) => setTimeout(resolve, 30));
        await mark('job 2');
      },
      { holdsDatabase: holds },
    );
    await enqueueJob(db(), 'test-hold', {});
    await worker.drain();
    await person.done;
    const marks = await sql<{ what: string }>`select what from test_hold_marks order by seq`.execute(db());
    expect(marks.rows.map((row) => row.what)).toEqual(order);
  });
});
