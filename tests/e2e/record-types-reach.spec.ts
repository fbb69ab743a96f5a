/**
 * A field or record type made in the schema editor reaches the whole app (issue 20): a searchable custom text field
 * of sites finds its site in the sites list and shows on the map card, market share groups by a custom dropdown, and
 * a file imported into a type made in the editor relates to sites by their names. What is not the point of a test
 * (fields, types, importers, sites) is set up through the API.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
// A worker started again after a failure runs this file anew: the stamp keeps its fields, sites and type apart.
const stamp = Date.now().toString().slice(-6);
const gateCode = `ALPHA-GATE-${stamp}`;
// Fresno: a place no other test writes sites to.
const SPOT = { lat: 36.7378, lng: -119.7871 };
const site = { id: 0, name: `Fresno Yard ${stamp}` };
const riskField = { slug: '', name: `Risk ${stamp}` };
const shopField = { name: `Shop ${stamp}` };

test.beforeAll(async () => {
  api = await Api.signIn();
  const schemas = await api.get<{ data: Array<{ id: number; type: string }> }>('/api/schemas?per_page=-1');
  const sites = schemas.data.find((schema) => schema.type === 'site')!;
  const field = (body: Record<string, unknown>) =>
    api.post<{ data: { slug: string } }>('/api/schema-fields', { schema_id: sites.id, ...body });
  const gate = await field({ name: `Gate code ${stamp}`, type: 'text', options: { searchable: true } });
  const risk = await field({
    name: riskField.name,
    type: 'dropdown',
    options: {
      choices: [
        { value: 'r-low', label: 'Low risk' },
        { value: 'r-high', label: 'High risk' },
      ],
    },
  });
  riskField.slug = risk.data.slug;
  // A contractor's dropdown, and a contractor holding it, the general contractor of the first site.
  const contractors = schemas.data.find((schema) => schema.type === 'contractor')!;
  const shop = await api.post<{ data: { slug: string } }>('/api/schema-fields', {
    schema_id: contractors.id,
    name: shopField.name,
    type: 'dropdown',
    options: { choices: [{ value: 'sz-big', label: 'Big shop' }] },
  });
  const contractor = await api.post<{ data: { id: number } }>('/api/contractors', {
    name: `Fresno Builders ${stamp}`,
    type: 'union',
    [shop.data.slug]: 'sz-big',
  });
  const made = await api.post<{ data: { id: number } }>('/api/sites', {
    name: site.name,
    type: 'union',
    latitude: SPOT.lat,
    longitude: SPOT.lng,
    city: 'Fresno',
    state: 'CA',
    [gate.data.slug]: gateCode,
    [risk.data.slug]: 'r-high',
    general_contractor_id: contractor.data.id,
  });
  site.id = made.data.id;
  // Another site holding the other choice, so the report has two groups to tell apart.
  await api.post('/api/sites', {
    name: `Fresno Lot ${stamp}`,
    type: 'non-union',
    latitude: SPOT.lat + 0.2,
    longitude: SPOT.lng,
    [risk.data.slug]: 'r-low',
  });
});

test.afterAll(async () => {
  await api.dispose();
});

test('a searchable custom text field finds its site in the sites list, and the map card shows the custom fields', async ({
  page,
}) => {
  await signIn(page, { at: '/sites' });
  const search = page.getByRole('searchbox').or(page.getByPlaceholder('Search')).first();
  await search.fill(gateCode);
  await expect(page.getByRole('gridcell', { name: site.name, exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: `Fresno Lot ${stamp}`, exact: true })).toHaveCount(0);

  await page.goto(`/map?lat=${SPOT.lat}&lng=${SPOT.lng}&z=17`);
  const pin = page.locator(`[data-testid=map-site][data-id="${site.id}"]`);
  await expect(pin).toBeVisible({ timeout: 20_000 });
  await pin.click();
  const fields = page.getByTestId('marker-card').getByTestId('marker-card-fields');
  await expect(fields).toContainText(`Gate code ${stamp}`);
  await expect(fields).toContainText(gateCode);
  // The choice by its label, never its stored value.
  await expect(fields).toContainText('High risk');
  await expect(fields).not.toContainText('r-high');
});

test('market share groups by a custom dropdown of sites, by its labels', async ({ page }) => {
  await signIn(page, { at: '/reports/market-share' });
  await expect(page.getByTestId('market-share-table')).toBeVisible();
  await page.getByTestId('filter-group').locator('..').click();
  await page.getByRole('option', { name: riskField.name }).click();
  await expect(page).toHaveURL(new RegExp(`group_by=field%3A${riskField.slug}|group_by=field:${riskField.slug}`));
  const table = page.getByTestId('market-share-table');
  await expect(table.getByRole('columnheader', { name: riskField.name })).toBeVisible();
  await expect(table.getByTestId('market-share-row').filter({ hasText: 'High risk' })).toHaveCount(1);
  await expect(table.getByTestId('market-share-row').filter({ hasText: 'Low risk' })).toHaveCount(1);
  await expect(table).not.toContainText('r-high');

  // A contractor's field, named as whose it is; a site counts in each of its contractors' values, as the note says.
  await page.getByTestId('filter-group').locator('..').click();
  await page.getByRole('option', { name: `Contractor shop ${stamp}` }).click();
  await expect(table.getByRole('columnheader', { name: `Contractor shop ${stamp}` })).toBeVisible();
  await expect(table.getByTestId('market-share-row').filter({ hasText: 'Big shop' })).toHaveCount(1);
  await expect(page.getByTestId('group-note')).toContainText('each value its contractors hold');
  await expect(table).not.toContainText('sz-big');
});

test('a file imported through the import screen into a type made in the editor relates to sites by name', async ({
  page,
}) => {
  const singular = `Delivery${stamp}`;
  const type = await api.post<{ data: { type: string; resource: string } }>('/api/schemas', {
    name_singular: singular,
    name_plural: `Deliveries${stamp}`,
    fields: [
      { name: 'Site', type: 'relation', options: { target: 'site' } },
      { name: 'Pallets', type: 'number', options: { format: 'integer', min: 0 } },
    ],
  });
  const importer = `Deliveries ${stamp}`;
  await api.post('/api/importers', {
    name: importer,
    record_type: type.data.type,
    key_target: 'custom.name',
    create_related: false,
    columns: [
      { header: 'Ref', target: 'custom.name' },
      { header: 'Site', target: 'custom.site' },
      { header: 'Pallets', target: 'custom.pallets' },
    ],
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'om-e2e-reach-'));
  const file = path.join(folder, 'deliveries.csv');
  // The site by its name, in another case and with a stray space, as people type it.
  writeFileSync(file, `Ref,Site,Pallets\nD-${stamp},${site.name.toLowerCase()} ,12\n`);

  await signIn(page, { at: '/imports' });
  await expect(page.getByRole('heading', { name: 'Import CSV files' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Importer' }).click();
  await page.getByRole('option', { name: importer }).click();
  await page.getByTestId('import-file-input').setInputFiles(file);
  const preview = page.getByRole('grid', { name: 'Preview of the mapped rows' });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No errors in these rows.')).toBeVisible();
  // Columns by their fields' names, not their slugs.
  await expect(preview.getByRole('columnheader', { name: 'Pallets', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /start import/i }).click();
  await page.waitForURL(/\/imports\/\d+\/show$/);
  await expect(page.getByTestId('import-status')).toHaveText('Complete', { timeout: 60_000 });
  await expect(page.getByTestId('count-created')).toHaveText('1');

  await page
    .getByRole('list', { name: 'Imported records' })
    .getByRole('link', { name: `D-${stamp}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${type.data.resource}/\\d+/show$`));
  const details = page.getByTestId('record-details');
  await expect(details.locator('[data-field=site]')).toContainText(site.name);
  await expect(details.locator('[data-field=pallets]')).toContainText('12');
});
