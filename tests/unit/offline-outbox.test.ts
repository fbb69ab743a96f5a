import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { type OfflineDatabase, type OutboxItem, openOfflineDatabase } from '../../src/client/offline/database';
import { type Delivery, Outbox } from '../../src/client/offline/outbox';

/**
 * The outbox's once-only delivery (docs/offline.md): items survive a reload, are sent again with the same key until an
 * answer says they were written, and a server that honours the key (as src/server/records/idempotency.ts does) ends
 * with one record per item even when an answer was lost on the way back.
 */
let name = 0;
const open: OfflineDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** A page load: the outbox over the browser's database, opened afresh. */
function load(database: string) {
  const db = openOfflineDatabase(database).then((opened) => {
    open.push(opened);
    return opened;
  });
  return { outbox: new Outbox(() => db), close: async () => (await db).close() };
}

/** The server's side: one record per Idempotency-Key; the first answer again for a key it has seen. */
function server() {
  const answers = new Map<string, Record<string, unknown>>();
  const records: Record<string, unknown>[] = [];
  const attempts: string[] = [];
  return {
    records,
    attempts,
    receive(item: OutboxItem) {
      attempts.push(item.key);
      let answer = answers.get(`${item.userId}:${item.key}`);
      if (!answer) {
        answer = { id: records.length + 1, ...item.data };
        records.push(answer);
        answers.set(`${item.userId}:${item.key}`, answer);
      }
      return answer;
    },
  };
}

const visit = (notes: string) => ({
  userId: 7,
  resource: 'visits',
  kind: 'create' as const,
  data: { site_id: 1, notes },
  label: `Visit: ${notes}`,
});

describe('the outbox', () => {
  it('delivers each item once across a send that fails midway, a reload and a second send', async () => {
    const database = `outbox-${++name}`;
    const api = server();
    const first = load(database);
    await first.outbox.add(visit('one'));
    await first.outbox.add(visit('two'));
    await first.outbox.add({ userId: 7, resource: 'notes', kind: 'create', data: { body: 'three' }, label: 'Note' });

    // The first item is written and answered; the second is written but its answer never arrives (the connection
    // dropped on the way back); the third is never tried.
    let calls = 0;
    const midway = await first.outbox.flush(7, async (item): Promise<Delivery> => {
      calls += 1;
      const record = api.receive(item);
      if (calls === 2) throw new TypeError('Failed to fetch');
      return { outcome: 'sent', record };
    });
    expect(midway.stopped).toBe('offline');
    expect(midway.sent.map((item) => item.data)).toEqual([{ site_id: 1, notes: 'one' }]);
    await first.close();

    // The page is reloaded: a new outbox over the same browser database.
    const second = load(database);
    const waiting = await second.outbox.items(7);
    expect(waiting.map((item) => item.label)).toEqual(['Visit: two', 'Note']);
    const done = await second.outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    expect(done).toMatchObject({ stopped: false });
    expect(await second.outbox.items(7)).toEqual([]);

    // Item two was sent twice under one key; the server wrote one record per item.
    expect(api.attempts).toHaveLength(4);
    expect(new Set(api.attempts).size).toBe(3);
    expect(api.records.map((record) => record.notes ?? record.body)).toEqual(['one', 'two', 'three']);

    // A third send finds nothing to do.
    await second.outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    expect(api.attempts).toHaveLength(4);
  });

  it('keeps items while there is no connection, in the order they were made, and one run at a time', async () => {
    const { outbox } = load(`outbox-${++name}`);
    await outbox.add(visit('a'));
    await outbox.add(visit('b'));
    const offline = await outbox.flush(7, async () => ({ outcome: 'offline' }));
    expect(offline).toEqual({ sent: [], stopped: 'offline' });
    expect((await outbox.items(7)).map((item) => item.data.notes)).toEqual(['a', 'b']);

    const api = server();
    const send = async (item: OutboxItem): Promise<Delivery> => ({ outcome: 'sent', record: api.receive(item) });
    await Promise.all([outbox.flush(7, send), outbox.flush(7, send), outbox.flush(7, send)]);
    expect(api.attempts).toHaveLength(2);
    expect(api.records).toHaveLength(2);
  });

  it("sends only the signed-in person's items", async () => {
    const { outbox } = load(`outbox-${++name}`);
    await outbox.add(visit('mine'));
    await outbox.add({ ...visit('theirs'), userId: 8 });
    const api = server();
    await outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    expect(api.records.map((record) => record.notes)).toEqual(['mine']);
    expect((await outbox.items(8)).map((item) => item.data.notes)).toEqual(['theirs']);
  });

  it('marks a conflict for the person instead of overwriting, and sends the resolution once under a new key', async () => {
    const { outbox } = load(`outbox-${++name}`);
    const edit = await outbox.add({
      userId: 7,
      resource: 'sites',
      kind: 'update',
      id: 3,
      data: { name: 'Mine', updated_at: 'v1' },
      label: 'Site',
    });
    const next = await outbox.add(visit('after the conflict'));
    const api = server();
    const result = await outbox.flush(7, async (item) =>
      item.kind === 'update'
        ? {
            outcome: 'conflict',
            message: 'Someone else saved this site.',
            theirs: { id: 3, name: 'Theirs', updated_at: 'v2' },
          }
        : { outcome: 'sent', record: api.receive(item) },
    );
    expect(result.sent.map((item) => item.key)).toEqual([next.key]);
    const [conflict] = await outbox.items(7);
    expect(conflict).toMatchObject({ key: edit.key, state: 'conflict', theirs: { name: 'Theirs', updated_at: 'v2' } });

    // A conflict is not sent again until the person resolves it.
    await outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    expect(api.records).toHaveLength(1);

    const kept = await outbox.retry(conflict, { name: 'Mine', updated_at: 'v2' });
    expect(kept.key).not.toBe(edit.key);
    await outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    await outbox.flush(7, async (item) => ({ outcome: 'sent', record: api.receive(item) }));
    expect(api.records).toEqual([
      expect.objectContaining({ notes: 'after the conflict' }),
      expect.objectContaining({ name: 'Mine', updated_at: 'v2' }),
    ]);
    expect(await outbox.items(7)).toEqual([]);
  });
});
