import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/bootstrap: the client start answer', () => {
  it('signed out: the public config and no person, with a 200 and nothing private', async () => {
    const client = t.client();
    const [start, config] = await Promise.all([client.get('/api/bootstrap'), client.get('/api/system/config')]);
    expect(start.status).toBe(200);
    expect(start.headers.get('cache-control')).toBe('no-store');
    expect(start.body.data).toEqual({ config: config.body, user: null });
  });

  it('signed in: the same answers as the session check, config, features and schemas', async () => {
    const admin = await t.admin();
    const [start, check, config, features, schemas] = await Promise.all([
      admin.get('/api/bootstrap'),
      admin.get('/api/auth/check'),
      admin.get('/api/system/config'),
      admin.get('/api/features?per_page=-1'),
      admin.get('/api/schemas?per_page=-1'),
    ]);
    expect(start.status).toBe(200);
    expect(start.body.data.user).toEqual(check.body.data);
    expect(start.body.data.config).toEqual(config.body);
    expect(start.body.data.features).toEqual(features.body.data);
    expect(start.body.data.schemas).toEqual(schemas.body.data);
    expect(start.body.data.schemas.length).toBeGreaterThan(5);
  });

  it('an organizer gets their own person and what their role may read', async () => {
    const user = await t.createUser({ role: 'user', email: 'organizer-start@example.com', first_name: 'Orla' });
    const organizer = await t.signIn('organizer-start@example.com');
    const [start, schemas] = await Promise.all([
      organizer.get('/api/bootstrap'),
      organizer.get('/api/schemas?per_page=-1'),
    ]);
    expect(start.status).toBe(200);
    expect(start.body.data.user).toMatchObject({ id: user.id, first_name: 'Orla' });
    expect(start.body.data.schemas).toEqual(schemas.body.data);
  });

  it('leaves out a part the person may not read, as its own endpoint refuses it', async () => {
    const admin = await t.admin();
    expect(
      (await admin.post('/api/roles', { slug: 'start-no-features', name: 'No features', permissions: ['schema:read'] }))
        .status,
    ).toBe(201);
    await t.createUser({ role: 'start-no-features', email: 'no-features@example.com' });
    const person = await t.signIn('no-features@example.com');
    const [start, features] = await Promise.all([
      person.get('/api/bootstrap'),
      person.get('/api/features?per_page=-1'),
    ]);
    expect(features.status).toBe(403);
    expect(start.status).toBe(200);
    expect(start.body.data).not.toHaveProperty('features');
    expect(start.body.data.schemas.length).toBeGreaterThan(0);
    expect(start.body.data.user.email).toBe('no-features@example.com');
  });
});
