/**
 * The schema editor beyond fields and rules: a record type created in the editor is usable end to end (menu entry,
 * list, create, show, edit, delete), and renaming a type changes its menu label and page titles at once.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, filterList, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

test.describe('schema editor', () => {
  test('a record type created in the editor gets a menu entry and working list, create, show and edit screens', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now().toString().slice(-6);
    const singular = `Vehicle${stamp}`;
    const plural = `Vehicles${stamp}`;
    await signIn(page, { at: '/schemas' });
    await page.getByRole('link', { name: 'New record type' }).click();
    await page.getByLabel('One record is called').fill(singular);
    await page.getByLabel('Several are called').fill(plural);
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByTestId('new-field-name-0').fill('Plate');
    await page.getByRole('button', { name: 'Create record type' }).click();
    await expectNotice(page, 'Schema created successfully.');
    await expect(page.getByTestId('page-heading')).toHaveText(`Edit ${plural}`);

    // It is in the menu at once.
    const entry = page.getByTestId('sidebar').getByRole('link', { name: plural });
    await expect(entry).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/${singular.toLowerCase()}s$`));
    await expect(page.locator('#react-admin-title')).toContainText(plural);

    // Create, show, edit, list.
    await page.getByRole('link', { name: 'Create' }).click();
    await expect(page.getByTestId('page-heading')).toHaveText(`Create ${singular}`);
    await page.getByLabel('Name *').fill('Blue van');
    await page.getByLabel('Plate').fill('7ABC123');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, `${singular} created successfully.`);
    await expect(page.getByTestId('page-heading')).toHaveText('Blue van');
    await expect(page.getByTestId('record-details')).toContainText('7ABC123');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Plate').fill('8XYZ987');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, `${singular} updated successfully.`);
    await expect(page.getByTestId('record-details')).toContainText('8XYZ987');

    // Notes work on it too.
    await page.getByTestId('tab-notes').click();
    await page.getByLabel('New note').fill('Needs new tyres');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expectNotice(page, 'Note created successfully.');
    await expect(page.getByTestId('notes')).toContainText('Needs new tyres');

    await entry.click();
    await expect(page.getByRole('gridcell', { name: 'Blue van', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: '8XYZ987', exact: true })).toBeVisible();
    await page.getByRole('searchbox').or(page.getByPlaceholder('Search')).first().fill('nothing-like-it');
    await expect(page.getByRole('gridcell', { name: 'Blue van' })).toHaveCount(0);
  });

  test('renaming a record type renames its menu entry and page titles', async ({ page }) => {
    const schemas = await api.get<{
      data: Array<{ id: number; type: string; name_singular: string; name_plural: string }>;
    }>('/api/schemas?per_page=-1');
    const contact = schemas.data.find((schema) => schema.type === 'contact')!;
    await signIn(page, { at: `/schemas/${contact.id}` });
    await page.getByLabel('One record is called').fill('Prospect');
    await page.getByLabel('Several are called').fill('Prospects');
    await page.getByRole('button', { name: 'Save names' }).click();
    try {
      await expectNotice(page, 'Schema updated successfully.');
      await expect(page.getByTestId('sidebar').locator('[data-menu-key=contacts]')).toHaveText('Prospects');
      await page.getByTestId('sidebar').locator('[data-menu-key=contacts]').click();
      await expect(page.locator('#react-admin-title')).toContainText('Prospects');
      await page.getByRole('link', { name: 'Create' }).click();
      await expect(page.getByTestId('page-heading')).toHaveText('Create Prospect');
    } finally {
      await api.post(`/api/schemas/${contact.id}`, {
        name_singular: contact.name_singular,
        name_plural: contact.name_plural,
      });
    }
  });

  test('the autonumber, person, geo point and record stamp types work in the form, the details, the list and its filters, and a rating gets its stars in the field dialog', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const stamp = Date.now().toString().slice(-6);
    const created = await api.post<{ data: { id: number; resource: string } }>('/api/schemas', {
      name_singular: `Inspection${stamp}`,
      name_plural: `Inspections${stamp}`,
      fields: [
        { name: 'Number', type: 'autonumber', options: { prefix: 'INS-', padding: 4 } },
        { name: 'Inspector', type: 'person' },
        { name: 'Site location', type: 'geo-point' },
        { name: 'Made on', type: 'created-at' },
        { name: 'Made by', type: 'created-by' },
        { name: 'Changed by', type: 'updated-by' },
      ],
    });
    const resource = created.data.resource;
    const me = (
      await api.get<{ data: Array<{ id: number; first_name: string; last_name: string; email: string }> }>(
        `/api/users?per_page=100`,
      )
    ).data.find((user) => user.email === 'admin@example.com')!;
    const myName = `${me.first_name} ${me.last_name}`.trim();
    await api.post(`/api/${resource}`, { name: 'Other check' });

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, { at: `/${resource}/create` });
      await expect(page.getByTestId('page-heading')).toHaveText(`Create Inspection${stamp}`);
      await page.getByLabel('Name *').fill(`Quarry check ${width}`);
      await expect(page.getByLabel('Number')).toBeDisabled();
      await page.getByRole('combobox', { name: 'Inspector', exact: true }).fill(me.first_name);
      await page.getByRole('option', { name: myName }).first().click();
      const location = page.getByTestId('geo-point-site_location');
      await location.locator('.leaflet-container').click({ position: { x: 60, y: 60 } });
      await expect(location.getByLabel('Latitude')).not.toHaveValue('');
      await location.getByLabel('Latitude').fill('40.7128');
      await location.getByLabel('Longitude').fill('-74.006');
      await page.screenshot({ path: test.info().outputPath(`issue30-form-${width}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText(`Inspection${stamp} created successfully.`, { exact: true })).toBeVisible();
      const details = page.getByTestId('record-details');
      for (const text of [/INS-000\d/, myName, '40.7128, -74.006'])
        await expect(details, String(text)).toContainText(text);
      await expect(details.locator('[data-field=made_by]')).toContainText(myName);
      await page.screenshot({ path: test.info().outputPath(`issue30-details-${width}.png`), fullPage: true });
    }

    // "me" in the list's filter: the records whose inspector is the person looking.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/${resource}?filter=${encodeURIComponent(JSON.stringify({ inspector: 'me' }))}`);
    await expect(page.getByRole('gridcell', { name: 'Quarry check 1280', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Other check' })).toHaveCount(0);
    await page.goto(`/${resource}?filter=${encodeURIComponent(JSON.stringify({ site_location_null: 'true' }))}`);
    await expect(page.getByRole('gridcell', { name: 'Other check', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Quarry check 1280' })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('issue30-list-1280.png') });

    // The field dialog offers a rating's number of stars.
    await page.goto(`/schemas/${created.data.id}`);
    await expect(page.getByTestId('page-heading')).toHaveText(`Edit Inspections${stamp}`);
    await page.getByTestId('add-field').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Field name').fill('Grade');
    await dialog.getByRole('combobox', { name: 'Type', exact: true }).click();
    await page.getByRole('option', { name: 'Rating', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Stars', exact: true }).click();
    await page.getByRole('option', { name: '7 stars', exact: true }).click();
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(page.getByText('Field created successfully.', { exact: true }).first()).toBeVisible();
    const fields = await api.get<{ data: Array<{ slug: string; options: Record<string, unknown> }> }>(
      `/api/schema-fields?filter[schema_id]=${created.data.id}&per_page=-1`,
    );
    expect(fields.data.find((field) => field.slug === 'grade')?.options).toMatchObject({ max: 7 });
  });

  test('every field type works as an input, a display, a list column and a list filter', async ({ page }) => {
    test.setTimeout(150_000);
    const stamp = Date.now().toString().slice(-6);
    const choices = (...labels: string[]) => labels.map((label) => ({ value: label.toLowerCase(), label }));
    const created = await api.post<{ data: { id: number; resource: string } }>('/api/schemas', {
      name_singular: `Truck${stamp}`,
      name_plural: `Trucks${stamp}`,
      fields: [
        { name: 'Nickname', type: 'text' },
        { name: 'Story', type: 'textarea' },
        { name: 'Contact email', type: 'email' },
        { name: 'Phone', type: 'phone' },
        { name: 'Website', type: 'link' },
        { name: 'Bought on', type: 'date' },
        { name: 'Last service', type: 'datetime' },
        { name: 'Insured', type: 'boolean' },
        { name: 'Fuel', type: 'dropdown', options: { choices: choices('Diesel', 'Electric') } },
        { name: 'Paint', type: 'color' },
        { name: 'Driver notes', type: 'note' },
        { name: 'Photos', type: 'attachment' },
        { name: 'Garages', type: 'addresses' },
        { name: 'Code name', type: 'slug' },
        { name: 'Size', type: 'radios', options: { choices: choices('Small', 'Large'), orientation: 'horizontal' } },
        { name: 'Social page', type: 'social-link' },
        { name: 'Prevailing wage', type: 'prevailing-wage' },
        { name: 'Hours', type: 'estimated-hours' },
        { name: 'Craft', type: 'relation', options: { target: 'trade' } },
        { name: 'Unions', type: 'relation', options: { target: 'union', multiple: true } },
        { name: 'Home city', type: 'relation', options: { target: 'site-city' } },
      ],
    });
    const resource = created.data.resource;
    await signIn(page, { at: `/${resource}/create` });
    await expect(page.getByTestId('page-heading')).toHaveText(`Create Truck${stamp}`);

    await page.getByLabel('Name *').fill('Big Red');
    await page.getByLabel('Nickname').fill('Red');
    await page.getByLabel('Story').fill('Bought at auction.\nRuns well.');
    await page.getByLabel('Contact email').fill('fleet@example.com');
    await page.getByLabel('Phone', { exact: true }).fill('(555) 010-2000');
    await page.getByLabel('Website').fill('https://trucks.example.com');
    await page.getByLabel('Bought on').fill('2026-05-01');
    await page.getByLabel('Last service').fill('2026-06-02T10:30');
    await page.getByLabel('Insured').check();
    await page.getByRole('combobox', { name: 'Fuel', exact: true }).click();
    await page.getByRole('option', { name: 'Electric' }).click();
    await page.getByLabel('Paint', { exact: true }).fill('#aa2200');
    await page.getByLabel('Driver notes').fill('Check the brakes');
    await page
      .getByLabel('Photos: choose files')
      .setInputFiles({ name: 'truck.txt', mimeType: 'text/plain', buffer: Buffer.from('a red truck') });
    await expect(page.locator('[data-field=photos]').getByText('truck.txt')).toBeVisible();
    await page.locator('[data-field=garages]').getByRole('button', { name: 'Add' }).click();
    await page.locator('[data-field=garages]').getByLabel('Street').fill('1 Depot Rd');
    await page.locator('[data-field=garages]').getByLabel('City').fill('Fresno');
    await page.getByLabel('Code name').fill('big-red');
    await page.getByLabel('Large').check();
    await page.getByLabel('Social page').fill('https://www.facebook.com/bigred');
    await page.getByLabel('Prevailing wage').check();
    await page.getByLabel('Hours').fill('120');
    await page.getByRole('combobox', { name: 'Craft', exact: true }).fill('Elec');
    await page.getByRole('option', { name: 'Electrical' }).click();
    await page.getByRole('combobox', { name: 'Unions', exact: true }).fill('IBEW');
    await page.getByRole('option', { name: 'IBEW Local 11' }).click();
    await page.getByRole('combobox', { name: 'Home city', exact: true }).fill('Oakland');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Truck${stamp} created successfully.`, { exact: true })).toBeVisible();

    const details = page.getByTestId('record-details');
    for (const text of [
      'Red',
      'Bought at auction.',
      'fleet@example.com',
      '(555) 010-2000',
      'trucks.example.com',
      'May 1, 2026',
      'Jun 2, 2026',
      'Electric',
      '#aa2200',
      'Check the brakes',
      'truck.txt',
      '1 Depot Rd, Fresno',
      'big-red',
      'Large',
      'Facebook: bigred',
      '120 h',
      'Electrical',
      'IBEW Local 11',
      'Oakland',
    ]) {
      await expect(details, text).toContainText(text);
    }
    await expect(details.locator('[data-field=insured]')).toContainText('Yes');
    await expect(details.locator('[data-field=prevailing_wage]')).toContainText('Yes');
    const saved = await api.get<{ data: Record<string, unknown> }>(
      `/api/${resource}/${new URL(page.url()).pathname.split('/')[2]}`,
    );
    expect(saved.data).toMatchObject({
      fuel: 'electric',
      size: 'large',
      hours: 120,
      insured: true,
      prevailing_wage: true,
      home_city: 'Oakland',
      bought_on: '2026-05-01',
    });
    expect((saved.data.photos as number[]).length).toBe(1);

    // Another record, then the list filters tell them apart.
    await api.post(`/api/${resource}`, { name: 'Old Blue', fuel: 'diesel', size: 'small', hours: 10 });
    await page.goto(`/${resource}`);
    await expect(page.getByRole('gridcell', { name: 'Old Blue', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Big Red', exact: true })).toBeVisible();
    await filterList(page, [{ field: 'Fuel', value: 'Electric', pick: true }]);
    await expect(page.getByRole('gridcell', { name: 'Old Blue' })).toHaveCount(0);
    await expect(page.getByRole('gridcell', { name: 'Big Red', exact: true })).toBeVisible();
    await page.goto(`/${resource}?filter=${encodeURIComponent(JSON.stringify({ hours_gte: 50 }))}`);
    await expect(page.getByRole('gridcell', { name: 'Big Red', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Old Blue' })).toHaveCount(0);
    await page.goto(`/${resource}?filter=${encodeURIComponent(JSON.stringify({ nickname_like: 're' }))}`);
    await expect(page.getByRole('gridcell', { name: 'Big Red', exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Old Blue' })).toHaveCount(0);
    // Sort by a custom column.
    await page.goto(`/${resource}?sort=hours&order=ASC`);
    await expect(page.getByRole('row').nth(1)).toContainText('Old Blue');
    await page.goto(`/${resource}?sort=hours&order=DESC`);
    await expect(page.getByRole('row').nth(1)).toContainText('Big Red');
  });

  test('form logic triggers: on-load and on-change set values (the form is told), always shows and hides', async ({
    page,
  }) => {
    const stamp = Date.now().toString().slice(-6);
    const created = await api.post<{
      data: { id: number; resource: string; fields: Array<{ id: number; slug: string }> };
    }>('/api/schemas', {
      name_singular: `Ticket${stamp}`,
      name_plural: `Tickets${stamp}`,
      fields: [
        {
          name: 'State',
          type: 'radios',
          options: {
            choices: [
              { value: 'open', label: 'Open' },
              { value: 'closed', label: 'Closed' },
            ],
          },
        },
        { name: 'Priority', type: 'text' },
        { name: 'Closing note', type: 'text' },
      ],
    });
    const id = (slug: string) => `field:${created.data.fields.find((field) => field.slug === slug)!.id}`;
    const block = (body: Record<string, unknown>) =>
      api.post('/api/logic-blocks', { schema_id: created.data.id, ...body });
    await block({
      trigger: 'on-load',
      conditions: [],
      actions: [{ target: id('priority'), action: 'set-value', value: 'normal' }],
    });
    await block({
      trigger: 'on-change',
      conditions: [{ source: id('state'), operator: 'equals', value: 'closed' }],
      actions: [{ target: id('priority'), action: 'set-value', value: 'low' }],
    });
    await block({
      trigger: 'always',
      conditions: [{ source: id('state'), operator: 'equals', value: 'closed' }],
      actions: [{ target: id('closing_note'), action: 'show-field' }],
    });

    await signIn(page, { at: `/${created.data.resource}/create` });
    // On load: the priority is set, the closing note hidden.
    await expect(page.getByLabel('Priority')).toHaveValue('normal');
    await expect(page.getByLabel('Closing note')).toHaveCount(0);
    // On change of the state: the priority is set again and the note shows.
    await page.getByLabel('Closed').check();
    await expect(page.getByLabel('Priority')).toHaveValue('low');
    await expect(page.getByLabel('Closing note')).toBeVisible();
    await page.getByLabel('Closing note').fill('Fixed on site');
    await page.getByLabel('Name *').fill('Broken gate');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Ticket${stamp} created successfully.`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('record-details')).toContainText('low');
    await expect(page.getByTestId('record-details')).toContainText('Fixed on site');
  });
});
