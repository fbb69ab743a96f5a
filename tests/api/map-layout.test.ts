/**
 * The map layout of a list (issue 32 point 4, docs/views.md "Map"): GET /api/map/points of a record type made in the
 * app, over what its list finds: `filter[...]`, `filters=` and a saved view's filters (the one filter compiler), with
 * the access policy applied after them, and by a chosen geo-point field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let type: string;
const WORLD = 'bbox=-180,-85,180,85&zoom=17';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Rally',
      name_plural: 'Rallies',
      fields: [
        { name: 'Where', type: 'geo-point' },
        { name: 'Meeting point', type: 'geo-point' },
        { name: 'Size', type: 'number' },
        { name: 'Offices', type: 'addresses' },
        {
          name: 'Kind',
          type: 'dropdown',
          options: {
            choices: [
              { value: 'march', label: 'March' },
              { value: 'picket', label: 'Picket' },
            ],
          },
        },
      ],
    }),
    201,
  );
  resource = String(schema.resource);
  type = String(schema.type);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const points = async (client: TestClient, query: string) => {
  const answer = await client.get(`/api/map/points?type=${type}&${WORLD}&${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const body = answer.body as { data: Row[]; meta: Row };
  return { names: body.data.map((item) => item.name).sort(), meta: body.meta };
};
const filters = (group: unknown) => `filters=${encodeURIComponent(JSON.stringify(group))}`;

describe('a list laid out as a map', () => {
  let owner: Record<string, unknown>;

  it('draws the records its list finds, with the list filters and a saved view', async () => {
    owner = await t.createUser({ role: 'user', email: 'rally-owner@example.com' });
    const rallies: Array<[string, number, number, number, string, number | null]> = [
      ['Harbor march', 33.74, -118.27, 400, 'march', null],
      ['Downtown picket', 34.05, -118.24, 30, 'picket', null],
      ['Valley picket', 34.19, -118.45, 80, 'picket', Number(owner.id)],
      ['Nowhere picket', 0, 0, 5, 'picket', null],
    ];
    for (const [name, lat, lng, size, kind, userId] of rallies)
      ok(
        await admin.post(`/api/${resource}`, {
          name,
          where: name.startsWith('Nowhere') ? null : { lat, lng },
          meeting_point: { lat: lat + 1, lng },
          size,
          kind,
          ...(userId ? { user_id: userId } : {}),
        }),
        201,
      );
    const all = await points(admin, '');
    expect(all.names).toEqual(['Downtown picket', 'Harbor march', 'Valley picket']);
    expect(all.meta).toMatchObject({
      field: 'where',
      total: 3,
      capped: false,
      bounds: [-118.45, 33.74, -118.24, 34.19],
    });
    expect((await points(admin, 'filter[kind]=picket')).names).toEqual(['Downtown picket', 'Valley picket']);
    const any = {
      any: [
        { field: 'size', op: 'gte', value: 300 },
        { field: 'name', op: 'starts_with', value: 'Val' },
      ],
    };
    expect((await points(admin, filters(any))).names).toEqual(['Harbor march', 'Valley picket']);
    const view = ok(
      await admin.post('/api/views', {
        name: 'Small rallies',
        record_type: type,
        layout: 'map',
        settings: { field: 'meeting_point' },
        filters: { all: [{ field: 'size', op: 'lt', value: 100 }] },
      }),
      201,
    );
    // The view's filters and the request's own all hold.
    expect((await points(admin, `view=${view.id}`)).names).toEqual(['Downtown picket', 'Valley picket']);
    expect((await points(admin, `view=${view.id}&filter[kind]=picket&search=down`)).names).toEqual(['Downtown picket']);
    // By the other geo point: the record without a "Where" has a meeting point.
    const meeting = await points(admin, `view=${view.id}&by=meeting_point`);
    expect(meeting.names).toEqual(['Downtown picket', 'Nowhere picket', 'Valley picket']);
    expect(meeting.meta).toMatchObject({ field: 'meeting_point', total: 3 });
  });

  it('draws the first address of an addresses field that has coordinates', async () => {
    const office = ok(
      await admin.post(`/api/${resource}`, {
        name: 'Office rally',
        size: 1,
        offices: [{ city: 'Oakland', latitude: 37.8, longitude: -122.27 }, { city: 'Fresno' }],
      }),
      201,
    );
    ok(await admin.post(`/api/${resource}`, { name: 'Unplaced office', size: 1, offices: [{ city: 'Reno' }] }), 201);
    const answer = await admin.get(`/api/map/points?type=${type}&bbox=-122.3,37.7,-122.2,37.9&zoom=17&by=offices`);
    expect(answer.body).toMatchObject({
      data: [{ kind: 'point', id: office.id, lat: 37.8, lng: -122.27, name: 'Office rally' }],
      meta: { field: 'offices', total: 1 },
    });
  });

  it('answers 422 naming what it refuses', async () => {
    refused(
      await admin.get(`/api/map/points?type=${type}&${WORLD}&by=size`),
      'by',
      /not a geo point or addresses field/,
    );
    refused(
      await admin.get(
        `/api/map/points?type=${type}&${WORLD}&${filters({ all: [{ field: 'nope', op: 'eq', value: 1 }] })}`,
      ),
      'filters',
      /nope/,
    );
    refused(
      await admin.get(
        `/api/map/points?type=${type}&${WORLD}&${filters({ all: [{ field: 'size', op: 'sounds_like', value: 1 }] })}`,
      ),
      'filters',
      /sounds_like/,
    );
  });

  it('applies the access policy after the filters', async () => {
    ok(
      await admin.post('/api/roles', {
        slug: 'own-rallies',
        name: 'Own rallies',
        permissions: [`${type}:read`, 'map:read'],
        policy: { [type]: { read: 'own' } },
      }),
      201,
    );
    const reader = await t.createUser({ role: 'own-rallies', email: 'rally-reader@example.com' });
    ok(
      await admin.post(`/api/${resource}`, {
        name: 'Reader rally',
        where: { lat: 40, lng: -74 },
        size: 10,
        kind: 'march',
        user_id: reader.id,
      }),
      201,
    );
    const client = await t.signIn('rally-reader@example.com');
    expect((await points(client, '')).names).toEqual(['Reader rally']);
    expect(
      (
        await points(
          client,
          filters({
            any: [
              { field: 'kind', op: 'eq', value: 'picket' },
              { field: 'size', op: 'gte', value: 0 },
            ],
          }),
        )
      ).names,
    ).toEqual(['Reader rally']);
    expect((await points(client, 'filter[kind]=picket')).names).toEqual([]);
    const outsider = await t.signIn(String(owner.email));
    expect((await outsider.get(`/api/map/points?type=${type}&${WORLD}`)).status).toBe(403);
  });
});
