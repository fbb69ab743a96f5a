/**
 * The map layout (issue 32 point 4, docs/views.md "Map"): a record type made in the app with a geo-point field, its
 * list opened as a map (`?layout=map`) shows its records with a point; a saved view with `layout: 'map'` and a filter
 * shows only what the filter keeps; a point opens its record. At 1280 and 390 px.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
let resource = '';
let viewId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  const schema = await api.post<{ data: { resource: string; type: string } }>('/api/schemas', {
    name_singular: `Meetup ${stamp}`,
    name_plural: `Meetups ${stamp}`,
    fields: [
      { name: 'Place', type: 'geo-point' },
      { name: 'Size', type: 'number' },
    ],
  });
  resource = schema.data.resource;
  const meetups: Array<[string, number, number, number]> = [
    ['Los Angeles meetup', 34.05, -118.24, 40],
    ['New York meetup', 40.71, -74.0, 300],
    ['Chicago meetup', 41.88, -87.63, 20],
  ];
  for (const [name, lat, lng, size] of meetups) await api.post(`/api/${resource}`, { name, place: { lat, lng }, size });
  viewId = (
    await api.post<{ data: { id: number } }>('/api/views', {
      name: `Big meetups ${stamp}`,
      record_type: schema.data.type,
      layout: 'map',
      settings: { field: 'place' },
      filters: { all: [{ field: 'size', op: 'gte', value: 100 }] },
    })
  ).data.id;
});

test.afterAll(async () => {
  await api.dispose();
});

for (const width of [1280, 390]) {
  test(`a type made in the app is drawn on its list's map, filtered by a view, at ${width} px`, async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await signIn(page, { at: `/${resource}?layout=map` });
    const map = page.getByTestId('map-layout');
    await expect(map.getByText(`Meetups ${stamp} with a Place: 3`)).toBeVisible();
    await expect(map.getByTestId('map-point')).toHaveCount(3);
    await expect(map.getByRole('button', { name: /New York meetup/ })).toBeVisible();

    await page.goto(`/${resource}?view=${viewId}`);
    await expect(map.getByText(`Meetups ${stamp} with a Place: 1`)).toBeVisible();
    await expect(map.getByTestId('map-point')).toHaveCount(1);
    await map.getByRole('button', { name: /New York meetup/ }).click();
    await expect(page).toHaveURL(new RegExp(`/${resource}/\\d+/show`));
    await expect(page.getByText('New York meetup').first()).toBeVisible();
    await page.close();
  });
}
