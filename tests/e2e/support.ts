/** Shared helpers for the e2e tests: API calls as the administrator, users with fewer permissions, sign-in. */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page, request } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, E2E_PORT } from '../../playwright.config';

export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export { ADMIN_EMAIL, ADMIN_PASSWORD };
export const USER_PASSWORD = 'e2e-User-pass-2024';

export class Api {
  private constructor(readonly context: APIRequestContext) {}

  static async signIn(email = ADMIN_EMAIL, password = ADMIN_PASSWORD, baseURL = BASE_URL): Promise<Api> {
    const context = await request.newContext({
      baseURL,
      extraHTTPHeaders: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    });
    const api = new Api(context);
    await context.get('/sanctum/csrf-cookie');
    await api.post('/api/auth/login', { email, password, remember: false });
    return api;
  }

  private async token(): Promise<string> {
    const cookie = (await this.context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
    return cookie ? decodeURIComponent(cookie.value) : '';
  }

  async get<T = any>(path: string): Promise<T> {
    const response = await this.context.get(path);
    expect(response.ok(), `GET ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
    return response.json();
  }

  async post<T = any>(path: string, data: unknown): Promise<T> {
    const response = await this.context.post(path, { data, headers: { 'X-XSRF-TOKEN': await this.token() } });
    expect(response.ok(), `POST ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }

  async delete(path: string): Promise<void> {
    const response = await this.context.delete(path, { headers: { 'X-XSRF-TOKEN': await this.token() } });
    expect(response.ok(), `DELETE ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  }

  async roleId(slug: string): Promise<number> {
    const roles = await this.get<{ data: Array<{ id: number; slug: string }> }>('/api/roles?per_page=-1');
    const role = roles.data.find((candidate) => candidate.slug === slug);
    if (!role) throw new Error(`No role ${slug}`);
    return role.id;
  }

  /** A user of the seeded role `slug`, with a unique email. */
  async createUser(slug: string, firstName = 'Olive', lastName = 'Organizer') {
    const email = `${slug}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const body = await this.post<{ data: { id: number } }>('/api/users', {
      first_name: firstName,
      last_name: lastName,
      email,
      password: USER_PASSWORD,
      role_id: await this.roleId(slug),
    });
    return { id: body.data.id, email, password: USER_PASSWORD, firstName, lastName };
  }

  async dispose() {
    await this.context.dispose();
  }
}

/** Someone to sign in as: the administrator unless a test says otherwise. */
export interface Person {
  email: string;
  password: string;
}

/**
 * Signs the page's browser context in through the API, as the sign-in form does (the CSRF cookie, then POST
 * /api/auth/login: the session cookie lands in the context), then opens `at` (the dashboard unless told): one load of
 * the app instead of the sign-in page's and then the app's. A full URL in `at` signs in to that server (a spec's own).
 * The form itself is held by auth.spec.ts (`signInWithForm`) and keyboard.spec.ts.
 */
export async function signIn(page: Page, { user, at = '/' }: { user?: Person; at?: string } = {}) {
  const { email, password } = user ?? { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
  const origin = /^https?:/.test(at) ? new URL(at).origin : BASE_URL;
  const request = page.context().request;
  const headers = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  await request.get(`${origin}/sanctum/csrf-cookie`, { headers });
  const token = (await page.context().cookies(origin)).find((cookie) => cookie.name === 'XSRF-TOKEN');
  const answer = await request.post(`${origin}/api/auth/login`, {
    headers: { ...headers, 'X-XSRF-TOKEN': decodeURIComponent(token?.value ?? '') },
    data: { email, password, remember: false },
  });
  expect(answer.ok(), `sign-in as ${email}: ${answer.status()} ${await answer.text()}`).toBeTruthy();
  await page.goto(at);
}

/** Signs in through the sign-in form, as a person does. */
export async function signInWithForm(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: false }).first().fill(password);
  // Wait for the server's answer (success or refusal): a test that navigates at once would cancel the sign-in
  // request on a slow machine and land on /login again.
  const answered = page.waitForResponse(
    (response) => response.url().endsWith('/api/auth/login') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Sign In' }).click();
  await answered;
}

/** The sidebar (desktop) or drawer (mobile) menu entry keys, in order. */
export async function menuKeys(page: Page, scope: string): Promise<string[]> {
  return page
    .locator(`${scope} [data-menu-key]`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-menu-key') ?? ''));
}

/** Every link of the sidebar (groups opened), as paths: what the signed-in person can open from the menu. */
export async function sidebarLinks(page: Page): Promise<string[]> {
  const sidebar = page.getByTestId('sidebar');
  await sidebar.locator('[data-menu-key=dashboard]').waitFor();
  const closed = sidebar.locator('[aria-expanded=false][data-menu-key]');
  for (let i = await closed.count(); i > 0; i--) await closed.first().click();
  const hrefs = await sidebar
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((href) => href.startsWith('/')))];
}

/** The rules the accessibility sweeps hold every screen to: WCAG 2.1 A and AA. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core on the page as it is now, each violation as one readable line (`label` says where). `within` limits it to
 * part of the page: a walk through many screens checks the layout around them once and then only each main area.
 *
 * `axe.run` in the page itself (legacy mode): the default splits the run and finishes it in a new blank page, which
 * loads axe-core a second time and copies every result over. The app has no cross-origin frame, the one thing legacy
 * mode leaves out. Only violations are asked for (passing nodes, a list's every cell for colour contrast, are not
 * copied back). Over the administrator's 50 menu screens axe's CPU went from 62 s to 27 s (docs/testing.md).
 */
export async function axeViolations(page: Page, label: string, within?: string): Promise<string[]> {
  // options() replaces what withTags() set, so it comes first.
  const builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG)
    .setLegacyMode();
  if (within) builder.include(within);
  const result = await builder.analyze();
  return result.violations.map(
    (v) =>
      `${label}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join('\n    ')}`,
  );
}

/**
 * Opens `path` inside the running app: the router follows a history change as it does a menu click, without loading
 * the whole app again (a full load costs seconds on a busy two-core machine). Waits until the layout has committed
 * the new screen (`data-screen` on <body>, src/client/layout/screenMark.ts: a route still loading its code leaves the
 * previous one in view) and its requests are answered.
 */
export async function openInApp(page: Page, path: string) {
  const traffic = watchTraffic(page);
  const before = await page.evaluate(() => document.body.dataset.screen ?? '');
  const moved = await page.evaluate((to) => {
    const here = window.location.pathname + window.location.search;
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    return window.location.pathname + window.location.search !== here;
  }, path);
  traffic.navigated();
  if (moved) await page.waitForFunction((shown) => document.body.dataset.screen !== shown, before, { timeout: 30_000 });
  await traffic.settled();
}

const watched = new WeakMap<Page, { navigated(): void; settled(): Promise<void> }>();

/** How long no request may be open before a screen counts as loaded: a response's render starting the next one. */
const QUIET_MS = 250;

/**
 * Requests in flight on the page. `settled()` waits until none has been open for QUIET_MS: what
 * `waitForLoadState('networkidle')` does for a navigation, which a history change inside the app is not (that wait
 * returns at once, before the new screen has asked for anything).
 */
function watchTraffic(page: Page) {
  let traffic = watched.get(page);
  if (traffic) return traffic;
  let open = 0;
  let lastChange = Date.now();
  page.on('request', () => {
    open++;
    lastChange = Date.now();
  });
  const done = () => {
    open = Math.max(0, open - 1);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  traffic = {
    navigated() {
      lastChange = Date.now();
    },
    async settled() {
      await expect
        .poll(() => open === 0 && Date.now() - lastChange >= QUIET_MS, { timeout: 30_000, intervals: [50] })
        .toBe(true);
    },
  };
  watched.set(page, traffic);
  return traffic;
}

/**
 * Opens `path` inside the running app, waits for its content (requests answered, no spinner) and runs axe on the page.
 */
export async function axeScreen(page: Page, path: string, within?: string): Promise<string[]> {
  await openInApp(page, path);
  await expect(page).toHaveURL((url) => url.pathname === new URL(path, url).pathname);
  await expect(page.locator('#main-content')).toBeVisible();
  // Only spinners: a determinate bar (a goal's progress) is content.
  await expect(page.locator('main [role=progressbar]:not([aria-valuenow])')).toHaveCount(0);
  return axeViolations(page, path, within);
}

/** One condition of a list's filter builder: a field, an operator (the field's first when not given) and a value. */
export interface ListCondition {
  field: string;
  operator?: string;
  /** Typed into the value box, or picked from the value's options when `pick` is set. */
  value?: string;
  pick?: boolean;
}

/**
 * Adds conditions to a list through its one filter entry point (the "Filter" button's builder) and applies them;
 * `join: 'any'` shows the records matching any of them.
 */
export async function filterList(page: Page, conditions: ListCondition[], { join }: { join?: 'all' | 'any' } = {}) {
  await page.getByRole('button', { name: /^Filters?( \(\d+\))?$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Filter' });
  const pick = async (scope: Locator, label: string, option: string) => {
    await scope.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  if (join) await pick(dialog, 'Show records matching', join === 'any' ? 'any of these' : 'all of these');
  for (const condition of conditions) {
    await dialog.getByRole('button', { name: 'Add condition', exact: true }).click();
    const row = dialog.getByRole('group', { name: 'Condition' }).last();
    await pick(row, 'Field', condition.field);
    if (condition.operator) await pick(row, 'Operator', condition.operator);
    if (condition.value !== undefined) {
      if (condition.pick) await pick(row, 'Value', condition.value);
      else await row.getByRole('textbox', { name: 'Value' }).fill(condition.value);
    }
  }
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
}

/** A day of the current month as `YYYY-MM-DD` (the browser and the test process share the time zone). */
export function dayOfThisMonth(day: number) {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A mouse drag of a calendar event (from its right edge, beside its name, which is a link) or its end handle onto
 * the middle of a day or an hour, in small steps (dnd-kit starts a drag after 6 px). `from` and `to` must fit in
 * the window together.
 */
export async function dragEvent(page: Page, from: Locator, to: Locator) {
  // The target in the middle of the window: near its edge dnd-kit scrolls the page while dragging.
  await to.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width - 3, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width + 7, a.y + a.height / 2, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}
