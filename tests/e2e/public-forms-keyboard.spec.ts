/**
 * The public-forms administrators' screens by keyboard alone (issue 36 point 5) at 390 and 1280 px: on the forms list,
 * in the publish dialog and on a form's submissions, every control that can be used is reached with Tab and has a name
 * a screen reader reads; the dialog opens with Enter, closes with Escape and gives focus back. Set up through the API.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const title = `Keyboard sign up ${stamp}`;
const slug = `keyboard-sign-up-${stamp}`;

test.beforeAll(async () => {
  api = await Api.signIn();
  await api.post('/api/public-forms', {
    title,
    slug,
    kind: 'record',
    record_type: 'contact',
    fields: ['first_name', 'last_name', 'email'],
    thank_you: 'Thanks.',
  });
  await api.post(`/api/public-forms/by-slug/${slug}/submissions`, {
    values: { first_name: 'Kim', last_name: `Keys${stamp}`, email: `kim.keys.${stamp}@example.org` },
  });
});
test.afterAll(async () => {
  await api?.dispose();
});

/**
 * Marks the controls of `scope` a person can use (visible, enabled, not taken out of the tab order), presses Tab
 * until each has had focus or the walk has gone round twice, and checks each was reached and is named.
 */
async function walk(page: Page, scope: string) {
  const controls = await page.evaluate((selector) => {
    const root = document.querySelector(selector);
    if (!root) throw new Error(`Nothing matches ${selector}`);
    const all = [
      ...root.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, [tabindex], [role="combobox"], [role="button"], [role="link"]',
      ),
    ].filter(
      (node) =>
        !node.matches(':disabled') &&
        node.getAttribute('tabindex') !== '-1' &&
        !node.closest('[aria-hidden="true"], [hidden]') &&
        node.checkVisibility({ checkVisibilityCSS: true }),
    );
    all.forEach((node, index) => node.setAttribute('data-kb', String(index)));
    return all.map((node) => node.outerHTML.slice(0, 160));
  }, scope);
  expect(controls.length, `no control in ${scope}`).toBeGreaterThan(0);
  const reached = new Set<number>();
  const focused = () =>
    page.evaluate(() => {
      const mark = document.activeElement?.getAttribute('data-kb');
      return mark === null || mark === undefined ? null : Number(mark);
    });
  const first = await focused();
  if (first !== null) reached.add(first);
  for (let press = 0; press < controls.length * 2 + 10 && reached.size < controls.length; press++) {
    await page.keyboard.press('Tab');
    const at = await focused();
    if (at !== null) reached.add(at);
  }
  const missed = controls.filter((_, index) => !reached.has(index));
  expect(missed, `controls of ${scope} Tab never reached`).toEqual([]);
  for (const [index, html] of controls.entries())
    await expect(page.locator(`[data-kb="${index}"]`), `no accessible name: ${html}`).toHaveAccessibleName(/\S/);
  await page.evaluate(() => {
    for (const node of document.querySelectorAll('[data-kb]')) node.removeAttribute('data-kb');
  });
}

/** The publish dialog (at a phone's width the menu's drawer is a dialog too). */
const DIALOG = '[role="dialog"][aria-labelledby="public-form-title"]';

/** Puts the keyboard at the start of the page's content, as its skip link does. */
async function startOfContent(page: Page) {
  await page.locator('#main-content').focus();
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px every control of the public-forms screens is reached by Tab and named`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signIn(page, { at: '/public-forms' });
    const card = page.getByRole('region', { name: title });
    await expect(card).toContainText('1 submission');

    await startOfContent(page);
    await walk(page, '#main-content');

    // The publish dialog: opened with Enter, focus inside it, every field reached, closed with Escape.
    const publish = page.getByRole('button', { name: 'Publish a form' });
    await publish.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Publish a form' });
    await expect(dialog.getByRole('textbox', { name: 'Title' })).toBeFocused();
    await walk(page, DIALOG);
    // A record form shows its record type and fields too.
    await dialog.getByRole('combobox', { name: 'What people fill in' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: "A record's form" }).press('Enter');
    await expect(dialog.getByRole('combobox', { name: 'Fields shown, in order' })).toBeVisible();
    await walk(page, DIALOG);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(publish).toBeFocused();

    // The form's submissions, reached with Enter on its link.
    await card.getByRole('link', { name: 'Submissions' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Submissions' })).toContainText(`Kim Keys${stamp}`);
    await startOfContent(page);
    await walk(page, '#main-content');
  });
}
