/**
 * Formula, lookup and rollup fields made in the field dialog (issue 30, docs/records.md): on record types made in the
 * app (jobs, each with a crew and shifts), an administrator adds to jobs a formula, a lookup of the crew's size and a
 * rollup of the hours of the job's long shifts (a condition), choosing relations and fields by name. An organizer sees
 * the worked-out values in the list and on the record, and filters the list by the rollup. At 1280 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;

test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

interface Made {
  id: number;
  type: string;
  resource: string;
}
const makeType = async (singular: string, fields: unknown[]) =>
  (await api.post<{ data: Made }>('/api/schemas', { name_singular: singular, name_plural: `${singular}s`, fields }))
    .data;

/** Picks `option` in the dialog's select labelled `label`. */
async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label, exact: true }).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

for (const width of [1280, 390]) {
  test(`an administrator adds a formula, a lookup and a rollup in the dialog; an organizer sees and filters them, at ${width} px`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const stamp = `${Date.now().toString().slice(-5)}w${width}`;
    const crew = await makeType(`Crew${stamp}`, [{ name: 'Headcount', type: 'number' }]);
    const job = await makeType(`Job${stamp}`, [
      { name: 'Estimate', type: 'number' },
      { name: 'Crew', type: 'relation', options: { target: crew.type } },
    ]);
    const shift = await makeType(`Shift${stamp}`, [
      { name: 'Job', type: 'relation', options: { target: job.type } },
      { name: 'Shift hours', type: 'number' },
    ]);
    const big = (await api.post<{ data: { id: number } }>(`/api/${crew.resource}`, { name: 'Big crew', headcount: 12 }))
      .data;
    const roof = (
      await api.post<{ data: { id: number } }>(`/api/${job.resource}`, { name: 'Roof', estimate: 1000, crew: big.id })
    ).data;
    const yard = (await api.post<{ data: { id: number } }>(`/api/${job.resource}`, { name: 'Yard', estimate: 50 }))
      .data;
    for (const [on, hours] of [
      [roof.id, 6],
      [roof.id, 3],
      [roof.id, 8],
      [yard.id, 2],
    ])
      await api.post(`/api/${shift.resource}`, { name: `Shift ${hours}h`, job: on, shift_hours: hours });

    // The administrator adds the three fields in the dialog.
    const admin = await browser.newPage({ viewport: { width, height: 900 } });
    await signIn(admin, { at: `/schemas/${job.id}` });
    await expect(admin.getByRole('heading', { name: `Edit Job${stamp}s` })).toBeVisible();
    const addField = async (name: string, type: string) => {
      await admin.getByTestId('add-field').click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByLabel('Field name').fill(name);
      await choose(admin, dialog, 'Type', type);
      return dialog;
    };
    let dialog = await addField('With margin', 'Formula');
    await dialog.getByTestId('formula-expression').fill('ROUND({Estimate} * 1.1, 0)');
    await expect(dialog.getByTestId('formula-result')).toContainText('Gives a number');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(dialog).toHaveCount(0);

    dialog = await addField('Crew size', 'Lookup');
    await choose(admin, dialog, 'Through the relation', `Crew (Crew${stamp})`);
    await choose(admin, dialog, `Field of the Crew${stamp} shown`, 'Headcount');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(dialog).toHaveCount(0);

    dialog = await addField('Long shift hours', 'Rollup');
    // Nothing chosen yet: the server's refusal shows beside the related records.
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(dialog.getByText(/Roll up either the records pointing at this one/)).toBeVisible();
    await choose(admin, dialog, 'Related records', `Shift${stamp}s (their Job)`);
    await choose(admin, dialog, 'Function', 'Total of');
    await choose(admin, dialog, 'Field', 'Shift hours');
    await dialog.getByRole('button', { name: 'Add a condition' }).click();
    const where = dialog.getByTestId('rollup-where');
    await choose(admin, where, 'Field', 'Shift hours');
    await choose(admin, where, 'Is', 'is at least');
    await where.getByLabel('Value').fill('5');
    await admin.screenshot({ path: test.info().outputPath(`rollup-dialog-${width}.png`), fullPage: true });
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(dialog).toHaveCount(0);
    const fields = await api.get<{ data: Array<{ slug: string; options: Record<string, unknown> }> }>(
      `/api/schema-fields?filter[schema_id]=${job.id}&per_page=-1`,
    );
    const options = (slug: string) => fields.data.find((field) => field.slug === slug)?.options;
    expect(options('crew_size')).toMatchObject({ through: 'crew', field: 'headcount', result: 'number' });
    expect(options('long_shift_hours')).toMatchObject({
      from: `${shift.type}.job`,
      function: 'sum',
      field: 'shift_hours',
      where: { all: [{ field: 'shift_hours', op: 'gte', value: 5 }] },
    });
    await admin.close();

    // An organizer who may read the three types sees the values and filters by the rollup.
    const roles = await api.get<{ data: Array<{ slug: string; permissions: string[] }> }>('/api/roles?per_page=-1');
    const organizer = roles.data.find((role) => role.slug === 'user')!;
    const roleSlug = `computed-${stamp}`;
    await api.post('/api/roles', {
      slug: roleSlug,
      name: `Computed readers ${stamp}`,
      permissions: [...organizer.permissions, ...[crew, job, shift].map((made) => `${made.type}:read`)],
    });
    const person = await api.createUser(roleSlug, 'Ora', `Computed${stamp}`);
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await signIn(page, { user: person, at: `/${job.resource}` });
    const list = page.locator('#main-content');
    // The list's chunks load on a busy machine.
    await expect(list.getByText('Roof', { exact: true })).toBeVisible({ timeout: 30_000 });
    if (width > 500) {
      const row = page.getByRole('row').filter({ hasText: 'Roof' });
      await expect(row.getByRole('gridcell', { name: '1,100', exact: true })).toBeVisible();
      await expect(row.getByRole('gridcell', { name: '12', exact: true })).toBeVisible();
      await expect(row.getByRole('gridcell', { name: '14', exact: true })).toBeVisible();
    }
    await page.screenshot({ path: test.info().outputPath(`computed-list-${width}.png`) });

    await page.goto(`/${job.resource}/${roof.id}/show`);
    const details = page.getByTestId('record-details');
    await expect(details.locator('[data-field=with_margin]')).toContainText('1,100');
    await expect(details.locator('[data-field=crew_size]')).toContainText('12');
    await expect(details.locator('[data-field=long_shift_hours]')).toContainText('14');
    await page.screenshot({ path: test.info().outputPath(`computed-record-${width}.png`), fullPage: true });

    // Filtered by the rollup: Yard's one short shift counts nothing.
    await page.goto(`/${job.resource}?filter=${encodeURIComponent(JSON.stringify({ long_shift_hours_gte: 10 }))}`);
    await expect(list.getByText('Roof', { exact: true })).toBeVisible();
    await expect(list.getByText('Yard', { exact: true })).toHaveCount(0);
    await page.close();
  });
}
