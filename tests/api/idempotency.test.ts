import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The Idempotency-Key of the one write path (src/server/records/idempotency.ts, docs/offline.md): the browser's
 * outbox sends what was captured offline with a key per item and sends it again when it cannot know whether the first
 * attempt arrived; the second attempt returns the first answer and writes nothing. Keys are per person.
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
      await t.ctx.db
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
});
