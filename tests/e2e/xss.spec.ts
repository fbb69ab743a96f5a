import { expect, type Page, test } from '@playwright/test';
import { Api, openInApp, signIn } from './support';

/**
 * Stored XSS, in the browser: a script payload goes into every text a person or a file can set (record fields of
 * each type, custom field names and choices, record type names, reference lists, region names from a GeoJSON upload,
 * import file names and cells, document file names, notes, tasks, notifications, user and role names), then every
 * screen is opened (the map's region tooltip, marker card and side panel included). Nothing may run: no
 * `window.__xss`, no dialog, no element of the payload in the page (the Content-Security-Policy would stop an
 * inline handler, so the page is also searched for the injected markup itself) and no CSP violation report.
 */
const MARK = 'data-xss-probe';
const PAYLOAD = `X<img src=x ${MARK} onerror=window.__xss=1><script>window.__xss=1</script>`;
// Fargo, North Dakota: a place no other test writes sites or regions to.
const AT = { lat: 46.877, lng: -96.79 };

let api: Api;
const seeded: Record<string, number> = {};

async function token(): Promise<string> {
  const cookie = (await api.context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
  return cookie ? decodeURIComponent(cookie.value) : '';
}

async function upload(
  path: string,
  fields: Record<string, string>,
  file: { field: string; name: string; text: string; type: string },
) {
  const response = await api.context.post(path, {
    headers: { 'X-XSRF-TOKEN': await token() },
    multipart: { ...fields, [file.field]: { name: file.name, mimeType: file.type, buffer: Buffer.from(file.text) } },
  });
  expect(response.ok(), `POST ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return response.json();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  api = await Api.signIn();
  const me = (await api.get('/api/auth/check')).data;
  const schemas = (await api.get('/api/schemas?per_page=-1')).data as Array<{ id: number; type: string }>;
  const siteSchema = schemas.find((schema) => schema.type === 'site')!;

  // Names of the things around a record: a custom text field and a dropdown whose choice is the payload.
  const field = (
    await api.post('/api/schema-fields', { schema_id: siteSchema.id, name: `${PAYLOAD} field`, type: 'text' })
  ).data;
  const dropdown = (
    await api.post('/api/schema-fields', {
      schema_id: siteSchema.id,
      name: 'Xss choice',
      type: 'dropdown',
      options: { choices: [PAYLOAD, 'plain'] },
    })
  ).data;
  // The server keeps a choice under a slug of what was typed (issue 30); its label, shown on every screen, is the payload.
  const firstChoice = (dropdown.options.choices as Array<string | { value: string }>)[0];
  const payloadChoice = typeof firstChoice === 'string' ? firstChoice : firstChoice.value;
  const status = (await api.post('/api/site-statuses', { name: `${PAYLOAD} status` })).data;
  const trade = (await api.post('/api/trades', { name: `${PAYLOAD} trade` })).data;
  const team = (await api.post('/api/teams', { name: `${PAYLOAD} team` })).data;
  const contractor = (
    await api.post('/api/contractors', {
      name: PAYLOAD,
      type: 'union',
      notes: PAYLOAD,
      latitude: AT.lat + 0.01,
      longitude: AT.lng + 0.01,
    })
  ).data;
  const site = (
    await api.post('/api/sites', {
      name: PAYLOAD,
      type: 'union',
      latitude: AT.lat,
      longitude: AT.lng,
      street: PAYLOAD,
      city: 'Fargo',
      owner: PAYLOAD,
      notes: PAYLOAD,
      site_status_id: status.id,
      trade_ids: [trade.id],
      general_contractor_id: contractor.id,
      [field.slug]: PAYLOAD,
      [dropdown.slug]: payloadChoice,
    })
  ).data;
  seeded.site = site.id;
  seeded.contact = (
    await api.post('/api/contacts', { first_name: PAYLOAD, last_name: PAYLOAD, title: PAYLOAD })
  ).data.id;
  seeded.member = (await api.post('/api/members', { first_name: PAYLOAD, last_name: 'Member' })).data.id;
  seeded.recruit = (await api.post('/api/recruits', { first_name: PAYLOAD, last_name: 'Recruit' })).data.id;
  seeded.grievance = (await api.post('/api/grievances', { title: PAYLOAD, description: PAYLOAD })).data.id;
  seeded.contractor = contractor.id;
  seeded.team = team.id;
  await api.post('/api/notes', { body: PAYLOAD, notable_type: 'site', notable_id: site.id });
  await api.post('/api/tasks', { title: PAYLOAD, type: 'call', user_id: me.id, due_at: new Date().toISOString() });
  await api.post('/api/notifications', {
    user_id: me.id,
    title: PAYLOAD,
    body: PAYLOAD,
    link: `/sites/${site.id}/show`,
  });
  const role = (await api.post('/api/roles', { slug: `xss-${Date.now()}`, name: PAYLOAD, permissions: ['site:read'] }))
    .data;
  seeded.user = (
    await api.post('/api/users', {
      first_name: PAYLOAD,
      last_name: PAYLOAD,
      email: `xss-${Date.now()}@example.com`,
      password: 'xss-password-123',
      role_id: role.id,
    })
  ).data.id;
  seeded.role = role.id;

  // A record type made in the app, named with the payload.
  const type = (
    await api.post('/api/schemas', {
      name_singular: `${PAYLOAD} Thing`,
      name_plural: `${PAYLOAD} Things`,
      fields: [{ name: `${PAYLOAD} detail`, type: 'text' }],
    })
  ).data;
  seeded.schema = type.id;
  seeded.typeRecord = (await api.post(`/api/${type.resource}`, { name: PAYLOAD })).data.id;
  seeded.typeResource = type.resource;

  // A region from a GeoJSON file whose name property is the payload, covering the site. As a state it is drawn over
  // the Census states around it (states are drawn last, by name), so hovering there opens its tooltip.
  const square = [
    [
      [AT.lng - 0.2, AT.lat - 0.2],
      [AT.lng + 0.2, AT.lat - 0.2],
      [AT.lng + 0.2, AT.lat + 0.2],
      [AT.lng - 0.2, AT.lat + 0.2],
      [AT.lng - 0.2, AT.lat - 0.2],
    ],
  ];
  const geojson = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: PAYLOAD, code: 'XSS' },
        geometry: { type: 'Polygon', coordinates: square },
      },
    ],
  });
  await upload(
    '/api/regions/upload',
    { geometry_type: 'state' },
    { field: 'file', name: `${PAYLOAD}.geojson`, text: geojson, type: 'application/geo+json' },
  );

  // A document whose file name is the payload, and an import whose importer, file name and cells are.
  await upload(
    '/api/documents',
    { documentable_type: 'site', documentable_id: String(site.id) },
    { field: 'file', name: `${PAYLOAD}.txt`, text: PAYLOAD, type: 'text/plain' },
  );
  const importer = (
    await api.post('/api/importers', {
      name: PAYLOAD,
      record_type: 'site',
      columns: [
        { header: 'Name', target: 'site.name' },
        { header: 'Bid', target: 'site.bid_date' },
      ],
    })
  ).data;
  const csv = `Name,Bid\n"${PAYLOAD.replace(/"/g, '""')} imported",2026-01-01\n"${PAYLOAD.replace(/"/g, '""')} failing","${PAYLOAD.replace(/"/g, '""')}"\n`;
  const started = await upload(
    '/api/imports',
    { importer_id: String(importer.id), name: PAYLOAD },
    { field: 'files[]', name: `${PAYLOAD}.csv`, text: csv, type: 'text/csv' },
  );
  seeded.import = started.data.id;
  seeded.importer = importer.id;
  await expect
    .poll(async () => (await api.get(`/api/imports/${seeded.import}`)).data.status, { timeout: 60_000 })
    .toBe('complete');
});

test.afterAll(async () => {
  await api.dispose();
});

/** What would show that the payload ran or was put in as markup. */
async function evidence(page: Page) {
  return page.evaluate(
    (mark) => ({
      ran: (window as any).__xss ?? null,
      injected: document.querySelectorAll(`[${mark}]`).length,
      violations: (window as any).__cspViolations ?? [],
    }),
    MARK,
  );
}

test('a script payload in every text people and files set never runs, on any screen', async ({ page }) => {
  test.setTimeout(600_000);
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    (window as any).__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as any).__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  // A list's grid renders the rows in view: a tall window puts every row of the short lists (users, roles) in view.
  await page.setViewportSize({ width: 1280, height: 2400 });
  await signIn(page);
  await expect(page.getByTestId('greeting')).toBeVisible({ timeout: 30_000 });

  // Every account on one page: earlier specs leave more than a page of people behind.
  const USERS = '/users?perPage=100';
  const screens = [
    '/',
    '/actions',
    '/tasks',
    '/notifications',
    '/settings',
    '/sites',
    `/sites/${seeded.site}/show`,
    `/sites/${seeded.site}`,
    '/contractors',
    `/contractors/${seeded.contractor}/show`,
    '/contacts',
    `/contacts/${seeded.contact}/show`,
    '/members',
    `/members/${seeded.member}/show`,
    '/recruits',
    `/recruits/${seeded.recruit}/show`,
    '/grievances',
    `/grievances/${seeded.grievance}/show`,
    '/site-statuses',
    '/trades',
    '/teams',
    '/imports',
    `/imports/${seeded.import}/show`,
    '/importers',
    `/importers/${seeded.importer}`,
    '/schemas',
    `/schemas/${seeded.schema}/show`,
    `/schemas/${seeded.schema}`,
    `/${seeded.typeResource}`,
    `/${seeded.typeResource}/${seeded.typeRecord}/show`,
    USERS,
    `/users/${seeded.user}/show`,
    '/roles',
    `/roles/${seeded.role}`,
    '/reports/market-share',
    '/reports/classifications',
    '/reports/task-performance',
    '/reports/user-performance',
  ];
  // Screens that show the payload are waited for until they do (the test looks at the text, not at empty pages).
  const showing = new Set([
    `/sites/${seeded.site}/show`,
    '/notifications',
    '/sites',
    `/contractors/${seeded.contractor}/show`,
    `/imports/${seeded.import}/show`,
    USERS,
    '/roles',
  ]);
  // Each screen is opened inside the running app, as a menu click would: index.html is static (the server writes no
  // record text into it), so a full load would render nothing more, and what ran on one screen stays in the evidence.
  for (const path of screens) {
    await openInApp(page, path);
    await expect(page.getByRole('main')).toBeVisible({ timeout: 30_000 });
    if (showing.has(path)) await expect(page.getByRole('main'), path).toContainText('X<img', { timeout: 30_000 });
    expect(await evidence(page), path).toEqual({ ran: null, injected: 0, violations: [] });
  }

  // The map: the region's tooltip, the site's card and its side panel.
  const regionsDrawn = page.waitForResponse(
    (response) => response.url().includes('/api/map/regions-geojson') && response.ok(),
    { timeout: 60_000 },
  );
  await page.goto(`/map?lat=${AT.lat}&lng=${AT.lng}&z=12`);
  await expect(page.getByTestId('map-page')).toBeVisible();
  await regionsDrawn;
  const pin = page.locator(`[data-testid=map-site][data-id="${seeded.site}"]`);
  await expect(pin).toBeVisible({ timeout: 30_000 });
  const frame = (await page.getByTestId('map-page').boundingBox())!;
  const tooltip = page.locator('.leaflet-tooltip');
  for (let i = 0; i < 40 && !(await tooltip.isVisible()); i++) {
    await page.mouse.move(
      frame.x + frame.width / 2 + 60 + (i % 10) * 9,
      frame.y + frame.height / 2 + 40 + (i % 7) * 6,
      { steps: 4 },
    );
    // Up to 300 ms for the tooltip at this spot, less once it shows; the expect below says what was missing.
    await tooltip.waitFor({ state: 'visible', timeout: 300 }).catch(() => undefined);
  }
  await expect(tooltip).toContainText('X<img');
  expect(await evidence(page), 'map tooltip').toEqual({ ran: null, injected: 0, violations: [] });
  await pin.click();
  const card = page.getByTestId('marker-card');
  await expect(card).toContainText('X<img');
  await card.getByRole('button', { name: 'Open in side panel' }).click();
  await expect(page.getByTestId('map-record-panel')).toContainText('X<img');
  expect(await evidence(page), 'map card and side panel').toEqual({ ran: null, injected: 0, violations: [] });
  expect(dialogs).toEqual([]);
});
