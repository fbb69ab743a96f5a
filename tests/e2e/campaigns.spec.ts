/**
 * Campaigns toward a majority (issue 17 point 5), at a phone's width and a desktop's: a campaign started from a
 * contractor's page, its unit estimated from the last head count, cards added from the campaign page until the 30%
 * showing of interest is passed, with the chart of cards over time; an organizer without the permission to read cards
 * sees the counts and no names. The contractor, its site and a visit are set up through the API.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
let organizer: { email: string; password: string };
// A worker started again after a failure runs this file anew: the stamp keeps its records apart.
const stamp = Date.now().toString().slice(-6);
const SIGNERS = ['Ana Signer', 'Ben Signer', 'Cleo Signer'];

test.beforeAll(async () => {
  api = await Api.signIn();
  organizer = await api.createUser('user', 'Otto', 'Counts');
});

test.afterAll(async () => {
  await api.dispose();
});

async function contractorWithHeadCount(label: string) {
  const contractor = (
    await api.post<{ data: { id: number } }>('/api/contractors', {
      name: `Drive Drywall ${label} ${stamp}`,
      type: 'non-union',
    })
  ).data.id;
  const site = (
    await api.post<{ data: { id: number } }>('/api/sites', {
      name: `Drive Tower ${label} ${stamp}`,
      type: 'non-union',
      contractors: [{ contractor_id: contractor }],
    })
  ).data.id;
  await api.post('/api/visits', {
    site_id: site,
    visited_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    head_counts: [{ contractor_id: contractor, workers: 10, non_union_workers: 10 }],
  });
  return contractor;
}

async function addCard(page: Page, name: string) {
  await page.getByTestId('add-card').click();
  await expect(page.getByTestId('page-heading')).toHaveText('Add a card');
  await page.getByRole('textbox', { name: "Worker's name" }).fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('campaign-cards')).toContainText(name);
}

for (const [label, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
] as const) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });
    test.describe.configure({ mode: 'serial' });
    let campaignUrl = '';

    test('start a campaign on a contractor, add cards past the 30% showing of interest, see the chart', async ({
      page,
    }) => {
      const contractor = await contractorWithHeadCount(label);
      await signIn(page, { at: `/contractors/${contractor}/show?tab=campaigns` });
      await expect(page.getByTestId('contractor-campaigns')).toContainText('No campaign aims at this contractor.');
      await page.getByTestId('start-campaign').click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Drywall drive ${label} ${stamp}`);
      await page.getByRole('button', { name: 'Save' }).click();

      await expect(page).toHaveURL(/\/campaigns\/\d+\/show/);
      campaignUrl = new URL(page.url()).pathname;
      const progress = page.getByTestId('campaign-progress');
      await expect(progress.getByTestId('campaign-cards-count')).toHaveText('0 cards signed');
      await expect(progress.getByTestId('campaign-unit-size')).toContainText(
        '10 workers in the unit, estimated from the latest head counts',
      );
      await expect(progress.getByTestId('threshold-showing')).toContainText('3 more of 3');
      await expect(page.getByTestId('cards-chart-empty')).toBeVisible();
      // The chart is drawn from the first day, before any card.
      await expect(page.getByTestId('cards-chart').locator('svg').first()).toBeVisible();

      for (const name of SIGNERS.slice(0, 2)) await addCard(page, name);
      await expect(progress.getByTestId('threshold-showing')).toHaveAttribute('data-reached', 'false');
      await addCard(page, SIGNERS[2]!);
      await expect(progress.getByTestId('campaign-cards-count')).toHaveText('3 cards signed');
      await expect(progress.getByTestId('threshold-showing')).toHaveAttribute('data-reached', 'true');
      await expect(progress.getByTestId('threshold-showing')).toContainText('reached (3 needed)');
      await expect(progress.getByTestId('threshold-majority')).toContainText('3 more of 6');
      await expect(page.getByTestId('cards-chart').locator('svg').first()).toBeVisible();

      // The contractor's page shows the campaign with its progress.
      await page.goto(`/contractors/${contractor}/show?tab=campaigns`);
      await expect(page.getByTestId('contractor-campaigns')).toContainText(`Drywall drive ${label} ${stamp}`);
      await expect(page.getByTestId('contractor-campaigns').getByTestId('campaign-cards-count')).toHaveText(
        '3 cards signed',
      );
    });

    test('an organizer without the permission to read cards sees the counts, not who signed', async ({ page }) => {
      await signIn(page, { user: organizer, at: campaignUrl });
      await expect(page.getByTestId('campaign-cards-count')).toHaveText('3 cards signed');
      await expect(page.getByTestId('threshold-showing')).toHaveAttribute('data-reached', 'true');
      await expect(page.getByTestId('card-holders-hidden')).toBeVisible();
      await expect(page.getByTestId('campaign-cards')).toHaveCount(0);
      for (const name of SIGNERS) await expect(page.getByText(name)).toHaveCount(0);
      await expect(page.getByTestId('add-card')).toHaveCount(0);

      // A card recorded elsewhere changes the count on the open page, still naming nobody.
      const campaignId = Number(/\/campaigns\/(\d+)\//.exec(campaignUrl)?.[1]);
      await api.post('/api/campaign-cards', {
        campaign_id: campaignId,
        worker_name: `Live Signer ${label}`,
        signed_on: new Date().toISOString().slice(0, 10),
      });
      await expect(page.getByTestId('campaign-cards-count')).toHaveText('4 cards signed');
      await expect(page.getByText(`Live Signer ${label}`)).toHaveCount(0);
    });
  });
}
