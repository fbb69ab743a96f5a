import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { inject, type ProvidedContext } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { AppContext } from '../../src/server/app-context.js';
import { warmedUp } from '../../src/server/assistant/builtin/vocabulary.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import type { Mail } from '../../src/server/auth/mailer.js';
import { type Config, loadConfig } from '../../src/server/config/config.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import type { ResourceDefinition } from '../../src/server/records/resource.js';
import { ensureAppKey, seedDatabase, seedDemoHistory } from '../../src/server/seed/seed.js';
import { type DatabaseTemplates, seedsLikeTemplate, TEMPLATE_SEED_ENV } from './database-templates.js';
import { openApiResponseCheck, type ReceivedAnswer } from './openapi-responses.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by tests/api/global-setup.ts when the API suite runs on PostgreSQL (server's `postgres` database). */
    TEST_DATABASE_URL: string | undefined;
    /** The migrated and the seeded database made once by tests/api/global-setup.ts, copied by each app. */
    DATABASE_TEMPLATES: DatabaseTemplates | undefined;
  }
}

export const ADMIN_EMAIL: string = TEMPLATE_SEED_ENV.ADMIN_EMAIL;
export const ADMIN_PASSWORD: string = TEMPLATE_SEED_ENV.ADMIN_PASSWORD;
/** Password of every user made with `createUser`. */
export const USER_PASSWORD = 'user-password-123';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** Every Set-Cookie line of the answer. */
  cookies: string[];
}

export interface RequestOptions {
  /** Skip the CSRF pre-flight and the X-XSRF-TOKEN header (default: sent on unsafe methods). */
  csrf?: boolean;
  /** Send this text as the body instead of JSON-encoding `body`. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestClient {
  /** Cookies this client holds, by name. */
  jar: Map<string, string>;
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  delete<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  /** GET /sanctum/csrf-cookie: the XSRF-TOKEN cookie lands in the jar. */
  csrf(): Promise<TestResponse>;
  /** POST /api/auth/login; the answer is returned whatever it is. */
  login(email: string, password: string, remember?: boolean): Promise<TestResponse>;
}

export interface TestApp {
  baseUrl: string;
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  database: Database;
  /** Mails the server sent (password reset links), oldest first. */
  mails: Mail[];
  /**
   * A new HTTP client with its own cookie jar. Its requests go through Fastify's `inject` (the whole request cycle,
   * hooks, parsers and serialisers included, without a socket); `baseUrl` still answers for what needs a real one.
   */
  client(): TestClient;
  /** A client signed in as the seeded super administrator. */
  admin(): Promise<TestClient>;
  /** A client signed in as `email` (throws unless sign-in answers 200). */
  signIn(email: string, password?: string, remember?: boolean): Promise<TestClient>;
  /** Creates a user through the API as the administrator; returns the created record. */
  createUser(fields: {
    role: string;
    email?: string;
    first_name?: string;
    last_name?: string;
    password?: string;
    team_id?: number | null;
    team_ids?: number[];
  }): Promise<Record<string, any>>;
  roleId(slug: string): Promise<number>;
  /** The signed-in user as the server loads it for a request (the seeded super administrator by default). */
  authUser(email?: string): Promise<AuthUser>;
  close(): Promise<void>;
}

/** Which database the API suite runs on: PGlite unless the global set-up started (or was given) PostgreSQL. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || provided('TEST_DATABASE_URL');
}

/** What tests/api/global-setup.ts provided; nothing outside a Vitest run of the API project (a bench, a script). */
function provided<K extends 'TEST_DATABASE_URL' | 'DATABASE_TEMPLATES'>(key: K): ProvidedContext[K] | undefined {
  try {
    return inject(key) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fresh database on the PostgreSQL server behind `serverUrl`, empty or a copy of the `template` database there;
 * `drop()` removes it.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // Not `with (force)`: the pool's sockets may still be closing, and killing them makes the client throw.
        // PostgreSQL waits up to 5 seconds for them to go; a database still in use is left for the server's removal.
        await client.query(`drop database if exists ${name}`).catch(() => {});
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A whole server as `npm start` builds it (migrate, app key, seed, buildApp) on a fresh temporary PGlite data
 * folder, or on a fresh PostgreSQL database when TEST_DATABASE_URL is set, listening on a free port.
 * A DATA_DIR or DATABASE_URL given in `overrides` is used as is and left in place by close() (restart tests).
 */
export interface TestAppOptions {
  /**
   * Keep the server's log here, one JSON line per entry (at LOG_LEVEL, default info), and send mails through the
   * app's own mailer (without SMTP_URL: to the log) instead of into `mails`.
   */
  logLines?: string[];
}

export async function startTestApp(overrides: NodeJS.ProcessEnv = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const ownDataDir = !overrides.DATA_DIR;
  const dataDir = overrides.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'om-api-'));
  const serverUrl = testDatabaseUrl();
  // A database of its own starts as a copy of the run's seeded template when its seed would be the same, else of
  // the migrated one; migrate and seed below then find nothing (or only the seed) to do.
  const templates = provided('DATABASE_TEMPLATES');
  const template = templates && (seedsLikeTemplate(overrides) ? templates.seeded : templates.migrated);
  const pgDatabase =
    serverUrl && !overrides.DATABASE_URL && ownDataDir
      ? await createPostgresDatabase(serverUrl, templates?.kind === 'postgres' ? template : undefined)
      : null;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...TEMPLATE_SEED_ENV,
    LOG_LEVEL: 'silent',
    APP_VERSION: '9.9.9-test',
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
    ...overrides,
  };
  const config = loadConfig(env);
  if (
    !config.databaseUrl &&
    ownDataDir &&
    templates?.kind === 'pglite' &&
    template &&
    !existsSync(path.join(dataDir, 'db'))
  ) {
    cpSync(path.join(template, 'db'), path.join(dataDir, 'db'), { recursive: true });
  }
  const database = await openDatabase(config);
  let app: FastifyInstance | undefined;
  const cleanup = async () => {
    // The tests are over: end every connection (a response a test did not read to the end would keep close() waiting).
    app?.server.closeAllConnections();
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    await pgDatabase?.drop().catch(() => {});
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    const mails: Mail[] = [];
    const { logLines } = options;
    const built = await buildApp({
      config,
      database,
      ...(logLines
        ? {
            logger: {
              level: overrides.LOG_LEVEL ?? 'info',
              stream: { write: (line: string) => void logLines.push(line) },
            },
          }
        : { logger: false, sendMail: async (mail: Mail) => void mails.push(mail) }),
    });
    app = built.app;
    await seedDemoHistory(built.ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const injected = injectInto(built.app);
    const roleIds = new Map<string, number>();
    let adminClient: TestClient | null = null;
    let closed = false;
    // The event bus's listeners run after a write's answer (src/server/events/app-events.ts): a test's next step sees
    // what they did, as a browser does once the realtime event has reached it; and the assistant's vocabulary that a
    // sign-in starts building in the background is built, so that no test counts its queries as its own.
    const settled = async () => {
      await built.ctx.events.idle();
      await warmedUp(built.ctx);
    };
    // Every JSON answer a test receives is checked against GET /api/openapi.json (tests/support/openapi-responses.ts).
    const check = openApiResponseCheck(built.app, built.ctx.db);

    const testApp: TestApp = {
      baseUrl,
      app,
      ctx: built.ctx,
      config,
      database,
      mails,
      client: () => createClient(baseUrl, injected, settled, check),
      admin: () => testApp.signIn(ADMIN_EMAIL, ADMIN_PASSWORD),
      async signIn(email, password = USER_PASSWORD, remember = false) {
        const client = createClient(baseUrl, injected, settled, check);
        const res = await client.login(email, password, remember);
        if (res.status !== 200)
          throw new Error(`Sign-in as ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
        return client;
      },
      async roleId(slug) {
        if (!roleIds.has(slug)) {
          const row = await built.ctx.db
            .selectFrom('roles')
            .select('id')
            .where('slug', '=', slug)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow();
          roleIds.set(slug, row.id);
        }
        return roleIds.get(slug)!;
      },
      async authUser(email = ADMIN_EMAIL) {
        const { id } = await built.ctx.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        const user = await loadAuthUser(built.ctx.db, id);
        if (!user) throw new Error(`No user ${email}`);
        return user;
      },
      async createUser({ role, email, first_name, last_name, password, team_id, team_ids }) {
        adminClient ??= await testApp.admin();
        const res = await adminClient.post('/api/users', {
          first_name: first_name ?? capitalise(role),
          last_name: last_name ?? 'Tester',
          email: email ?? `${role}-${randomBytes(4).toString('hex')}@example.com`,
          password: password ?? USER_PASSWORD,
          role_id: await testApp.roleId(role),
          ...(team_id !== undefined ? { team_id } : {}),
          ...(team_ids !== undefined ? { team_ids } : {}),
        });
        if (res.status !== 201)
          throw new Error(`Creating a ${role} user answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.data;
      },
      async close() {
        if (closed) return;
        closed = true;
        await cleanup();
      },
    };
    return testApp;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * The app's context where one resource's access rule is more than its categories for everyone, though it lets every
 * row through: the exact path a narrower reader takes (reports read the rows, not the counts kept for everyone).
 */
export function withOpenRowFilter(ctx: AppContext, resource: string): AppContext {
  const access = ctx.records.access;
  const narrower = Object.assign(Object.create(Object.getPrototypeOf(access)), access, {
    onlyCategories: (user: AuthUser, def: ResourceDefinition) =>
      def.name === resource ? Promise.resolve(null) : access.onlyCategories(user, def),
  });
  const records = Object.assign(Object.create(Object.getPrototypeOf(ctx.records)), ctx.records, { access: narrower });
  return { ...ctx, records };
}

/**
 * Two sessions of their own on the PostgreSQL test database, for tests of concurrent transactions: their backend
 * pids, a wait until a session is blocked on a lock, and `end()`, which rolls back what is open and disconnects.
 */
export async function twoPostgresSessions(t: TestApp) {
  const a = new pg.Client({ connectionString: t.config.databaseUrl! });
  const b = new pg.Client({ connectionString: t.config.databaseUrl! });
  await a.connect();
  await b.connect();
  const pidOf = async (c: pg.Client) => (await c.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  const pids = { a: await pidOf(a), b: await pidOf(b) };
  const waitsForLock = async (pid: number) => {
    for (let i = 0; i < 200; i++) {
      const row = await t.ctx.db
        .selectNoFrom(sql<string | null>`(select wait_event_type from pg_stat_activity where pid = ${pid})`.as('w'))
        .executeTakeFirstOrThrow();
      if (row.w === 'Lock') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`session ${pid} never waited for a lock`);
  };
  const end = async () => {
    await a.query('rollback').catch(() => {});
    await b.query('rollback').catch(() => {});
    await Promise.all([a.end(), b.end()]);
  };
  return { a, b, pids, waitsForLock, end };
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How a client's request reaches the server: over a socket with fetch, or through Fastify's inject. */
type Send = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
) => Promise<{ status: number; headers: Headers; text: string }>;

const overSocket: Send = async (url, init) => {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/**
 * Requests through `app.inject`: the same routes, hooks and answers without a socket, about a millisecond of CPU less
 * per request. The Host header is the listening address's, as a browser or fetch would send it (links in mails and
 * the CSP's websocket source are made from it).
 */
function injectInto(app: FastifyInstance): Send {
  return async (url, { method, headers, body }) => {
    const { host, pathname, search } = new URL(url);
    const response = await app.inject({
      method: method as 'GET',
      url: pathname + search,
      headers: { host, ...headers },
      payload: body,
    });
    const answered = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answered.append(name, String(one));
    }
    return { status: response.statusCode, headers: answered, text: response.payload };
  };
}

/**
 * An agent with its own cookie jar, doing the CSRF pre-flight the client app does; over a socket unless told.
 * `settled`: awaited after each answer (the app's event bus done with what the request emitted).
 */
export function createClient(
  baseUrl: string,
  send: Send = overSocket,
  settled: () => Promise<void> = async () => {},
  check?: (answer: ReceivedAnswer) => Promise<string | null>,
): TestClient {
  const jar = new Map<string, string>();

  const store = (setCookies: string[]) => {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((attribute) => {
        const [key, val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(val).getTime() <= Date.now();
        return false;
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  };

  const client: TestClient = {
    jar,
    async request(method, pathname, body, options = {}) {
      method = method.toUpperCase();
      const csrf = options.csrf ?? true;
      if (UNSAFE.has(method) && csrf && !jar.has('XSRF-TOKEN')) await client.csrf();
      const headers: Record<string, string> = { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
      let payload: string | undefined;
      if (options.raw !== undefined) {
        payload = options.raw;
        headers['content-type'] = 'application/json';
      } else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      if (UNSAFE.has(method) && csrf && jar.has('XSRF-TOKEN'))
        headers['x-xsrf-token'] = decodeURIComponent(jar.get('XSRF-TOKEN')!);
      if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      Object.assign(headers, options.headers);
      const response = await send(baseUrl + pathname, { method, headers, body: payload });
      const cookies = response.headers.getSetCookie();
      store(cookies);
      const { text } = response;
      await settled();
      let parsed: any = text;
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('application/json') && text) parsed = JSON.parse(text);
      const mismatch = await check?.({ method, url: pathname, status: response.status, contentType, body: parsed });
      if (mismatch) throw new Error(mismatch);
      return { status: response.status, headers: response.headers, body: parsed, cookies };
    },
    get: (pathname, options) => client.request('GET', pathname, undefined, options),
    post: (pathname, body, options) => client.request('POST', pathname, body, options),
    put: (pathname, body, options) => client.request('PUT', pathname, body, options),
    patch: (pathname, body, options) => client.request('PATCH', pathname, body, options),
    delete: (pathname, body, options) => client.request('DELETE', pathname, body, options),
    csrf: () => client.request('GET', '/sanctum/csrf-cookie'),
    login: (email, password, remember = false) => client.post('/api/auth/login', { email, password, remember }),
  };
  return client;
}

/** The attributes of the Set-Cookie line for `name` (lower-case keys; `value` holds the cookie's value). */
export function cookieAttributes(setCookies: string[], name: string): Record<string, string> | null {
  const line = setCookies.find((l) => l.startsWith(`${name}=`));
  if (!line) return null;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  const result: Record<string, string> = { value: pair.slice(name.length + 1) };
  for (const attribute of attributes) {
    const [key, val = 'true'] = attribute.split('=');
    result[key.toLowerCase()] = val;
  }
  return result;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
