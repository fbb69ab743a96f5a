import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { enqueueJob } from '../../src/server/jobs/queue.js';
import { IDEMPOTENCY_KEY_DAYS, IDEMPOTENCY_PURGE_JOB } from '../../src/server/records/idempotency.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The Idempotency-Key of the one write path (src/server/records/idempotency.ts, docs/offline.md), after the IETF draft:
 * the browser's outbox sends what was captured offline with a key per item and sends it again when it cannot know
 * whether the first attempt arrived; the second attempt returns the first answer, status and body unchanged, and
 * writes nothing. The same key with another method, path or body is a 422. Keys are per person and expire.
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
let other: TestClient;
let siteId: number;

const key = (name: string) => `test-${name}-0123456789`;
const withKey = (name: string) => ({ headers: { 'Idempotency-Key': key(name) } });
const count = async (table: string, column: string, value: unknown) =>
  Number(
    (
      await dynamicTables(t.ctx.db)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where(column, '=', value)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const first = await t.createUser({ role: 'user', email: 'idem-one@example.com' });
  const second = await t.createUser({ role: 'user', email: 'idem-two@example.com' });
  organizer = await t.signIn(first.email);
  other = await t.signIn(second.email);
  siteId = (await admin.post('/api/sites', { name: 'Idempotent Plaza', type: 'union', city: 'Keyville' })).body.data.id;
});
afterAll(async () => {
  await t?.close();
});

describe('Idempotency-Key on creates and updates', () => {
  it('writes a visit once when the same create is sent twice, and answers the second as the first', async () => {
    const body = { site_id: siteId, visited_at: '2026-04-01T09:00:00Z', notes: 'Sent twice' };
    const first = await organizer.post('/api/visits', body, withKey('visit'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await organizer.post('/api/visits', body, withKey('visit'));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('visits', 'notes', 'Sent twice')).toBe(1);
    expect(await count('revisions', 'revisionable_id', first.body.data.id)).toBeGreaterThanOrEqual(1);
    const revisions = (await admin.get(`/api/revisions?type=visit&revisionable_id=${first.body.data.id}`)).body.data;
    expect(revisions.filter((r: any) => r.action === 'created')).toHaveLength(1);
  });

  it('keeps keys apart by person: the same key from someone else is a write of its own and never sees the first answer', async () => {
    const mine = await organizer.post(
      '/api/notes',
      { body: 'Mine, private', notable_type: 'site', notable_id: siteId },
      withKey('note'),
    );
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const theirs = await other.post(
      '/api/notes',
      { body: 'Theirs', notable_type: 'site', notable_id: siteId },
      withKey('note'),
    );
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.body.data.body).toBe('Theirs');
    expect(JSON.stringify(theirs.body)).not.toContain('Mine, private');
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('notes', 'body', 'Mine, private')).toBe(1);
    expect(await count('notes', 'body', 'Theirs')).toBe(1);
  });

  it('leaves no key behind when the write fails, so a corrected retry with the key is written', async () => {
    const bad = await organizer.post('/api/visits', { site_id: siteId }, withKey('fails'));
    expect(bad.status).toBe(422);
    const good = await organizer.post(
      '/api/visits',
      { site_id: siteId, visited_at: '2026-04-02T09:00:00Z', notes: 'After a fix' },
      withKey('fails'),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(201);
    expect(await count('visits', 'notes', 'After a fix')).toBe(1);
  });

  it('answers a repeated update as the first instead of a false conflict on the version it already moved', async () => {
    const site = (await organizer.get(`/api/sites/${siteId}`)).body.data;
    const change = { name: 'Idempotent Plaza East', updated_at: site.updated_at };
    const first = await organizer.post(`/api/sites/${siteId}`, change, withKey('update'));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await organizer.post(`/api/sites/${siteId}`, change, withKey('update'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const stale = await organizer.post(
      `/api/sites/${siteId}`,
      { name: 'Someone stale', updated_at: site.updated_at },
      withKey('update-stale'),
    );
    expect(stale.status).toBe(409);
    const revisions = (await admin.get(`/api/revisions?type=site&revisionable_id=${siteId}`)).body.data;
    expect(revisions.filter((r: any) => r.action === 'updated')).toHaveLength(1);
  });

  it('refuses a key reused for another change, and a malformed key, with 422', async () => {
    const reused = await organizer.post(
      '/api/notes',
      { body: 'Another', notable_type: 'site', notable_id: siteId },
      withKey('visit'),
    );
    expect(reused.status).toBe(422);
    expect(reused.body.errors.idempotency_key[0]).toMatch(/already used/);
    const malformed = await organizer.post(
      '/api/notes',
      { body: 'Bad key', notable_type: 'site', notable_id: siteId },
      { headers: { 'Idempotency-Key': 'no spaces allowed' } },
    );
    expect(malformed.status).toBe(422);
    expect(await count('notes', 'body', 'Bad key')).toBe(0);
  });

  it('sends two attempts at once: one record', async () => {
    const body = { body: 'Raced', notable_type: 'site', notable_id: siteId };
    const [a, b] = await Promise.all([
      organizer.post('/api/notes', body, withKey('race')),
      organizer.post('/api/notes', body, withKey('race')),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await count('notes', 'body', 'Raced')).toBe(1);
  });

  it('refuses the same key with another body, with 422, and writes nothing; the first answer still replays', async () => {
    const body = { body: 'First content', notable_type: 'site', notable_id: siteId };
    const first = await organizer.post('/api/notes', body, withKey('changed-body'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const changed = await organizer.post('/api/notes', { ...body, body: 'Second content' }, withKey('changed-body'));
    expect(changed.status).toBe(422);
    expect(changed.body.errors.idempotency_key[0]).toMatch(/already used for a different request/);
    expect(await count('notes', 'body', 'Second content')).toBe(0);
    // The same body with its keys in another order is the same request.
    const reordered = { notable_id: siteId, notable_type: 'site', body: 'First content' };
    const again = await organizer.post('/api/notes', reordered, withKey('changed-body'));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await count('notes', 'body', 'First content')).toBe(1);
  });

  it('refuses the same key on another path or with another method, with 422', async () => {
    const body = { body: 'Pathed', notable_type: 'site', notable_id: siteId };
    const first = await organizer.post('/api/notes', body, withKey('other-path'));
    expect(first.status).toBe(201);
    const elsewhere = await organizer.post('/api/tasks', { ...body, title: 'x', type: 'call' }, withKey('other-path'));
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.idempotency_key[0]).toMatch(/another method, address or body/);

    const site = (await organizer.get(`/api/sites/${siteId}`)).body.data;
    const change = { city: 'Methodville', updated_at: site.updated_at };
    expect((await organizer.post(`/api/sites/${siteId}`, change, withKey('other-method'))).status).toBe(200);
    const patched = await organizer.patch(`/api/sites/${siteId}`, change, withKey('other-method'));
    expect(patched.status).toBe(422);
    expect(patched.body.errors.idempotency_key[0]).toMatch(/already used/);
  });

  it('replays the first status and body unchanged, even when what the answer names changed since', async () => {
    const body = { site_id: siteId, visited_at: '2026-04-03T09:00:00Z', notes: 'Replayed as sent' };
    const first = await organizer.post('/api/visits', body, withKey('as-sent'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const siteName = first.body.data._labels.site_id[siteId];
    const site = (await admin.get(`/api/sites/${siteId}`)).body.data;
    await admin.post(`/api/sites/${siteId}`, { name: `${siteName} Renamed`, updated_at: site.updated_at });
    const again = await organizer.post('/api/visits', body, withKey('as-sent'));
    expect(again.status).toBe(201);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(again.body.data._labels.site_id[siteId]).toBe(siteName);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it("takes the draft's quoted form of the key as the same key", async () => {
    const body = { body: 'Quoted key', notable_type: 'site', notable_id: siteId };
    const quoted = { headers: { 'Idempotency-Key': `"${key('quoted')}"` } };
    const first = await organizer.post('/api/notes', body, quoted);
    expect(first.status).toBe(201);
    const bare = await organizer.post('/api/notes', body, withKey('quoted'));
    expect(bare.status).toBe(201);
    expect(bare.headers.get('idempotent-replayed')).toBe('true');
    expect(bare.body).toEqual(first.body);
    expect(await count('notes', 'body', 'Quoted key')).toBe(1);
  });

  it(`forgets a key after ${IDEMPOTENCY_KEY_DAYS} days: it is a new key then, and the job removes it`, async () => {
    const age = (name: string, days: number) =>
      t.ctx.db
        .updateTable('idempotency_keys')
        .set({ created_at: sql`now() - make_interval(days => ${days})` })
        .where('key', '=', key(name))
        .execute();
    const body = { body: 'Old key', notable_type: 'site', notable_id: siteId };
    const first = await organizer.post('/api/notes', body, withKey('expiring'));
    expect(first.status).toBe(201);
    await age('expiring', IDEMPOTENCY_KEY_DAYS - 1);
    expect((await organizer.post('/api/notes', body, withKey('expiring'))).headers.get('idempotent-replayed')).toBe(
      'true',
    );
    await age('expiring', IDEMPOTENCY_KEY_DAYS + 1);
    const afterExpiry = await organizer.post('/api/notes', body, withKey('expiring'));
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.headers.get('idempotent-replayed')).toBeNull();
    expect(afterExpiry.body.data.id).not.toBe(first.body.data.id);
    expect(await count('notes', 'body', 'Old key')).toBe(2);

    // The job removes expired keys and keeps live ones.
    await organizer.post('/api/notes', { ...body, body: 'Stale key' }, withKey('stale'));
    await age('stale', IDEMPOTENCY_KEY_DAYS + 1);
    await enqueueJob(t.ctx.db, IDEMPOTENCY_PURGE_JOB, {}, { runAt: new Date(Date.now() - 1000) });
    await t.app.jobs.drain();
    const kept = await t.ctx.db.selectFrom('idempotency_keys').select('key').execute();
    expect(kept.map((row) => row.key)).not.toContain(key('stale'));
    expect(kept.map((row) => row.key)).toContain(key('expiring'));
    expect(kept.map((row) => row.key)).toContain(key('visit'));
  });
});
