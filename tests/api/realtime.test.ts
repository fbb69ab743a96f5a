import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import Pusher, { type Channel, type PresenceChannel } from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { loadConfig } from '../../src/server/config/config.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { applyContracts } from '../../src/server/http/contracts.js';
import { installErrorHandler } from '../../src/server/http/error-handler.js';
import { type Realtime, type RealtimeOptions, registerRealtime } from '../../src/server/realtime/index.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { next } from '../support/pusher-events.js';

const KEY = 'test-app-key';
const SECRET = 'test-app-secret';

/** Signatures are computed here independently of the server's signer, so a wrong scheme fails the test. */
const hmac = (text: string) => createHmac('sha256', SECRET).update(text).digest('hex');

function makeUser(id: number, roleId: number | null = 1): AuthUser {
  return {
    id,
    first_name: `First${id}`,
    last_name: `Last${id}`,
    name: `First${id} Last${id}`,
    email: `user${id}@example.com`,
    role: roleId === null ? null : { id: roleId, slug: `role-${roleId}`, name: `Role ${roleId}`, incognito: false },
    role_id: roleId,
    permissions: [],
    team_id: null,
    team_ids: [],
    realtime_key: `rk-${id}`,
    incognito: false,
    impersonator: null,
  };
}

interface TestServer {
  app: FastifyInstance;
  realtime: Realtime;
  port: number;
  base: string;
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function startServer(
  database: Database,
  options: Partial<RealtimeOptions> = {},
  env: Record<string, string> = {},
): Promise<TestServer> {
  const config = loadConfig({ NODE_ENV: 'test', PUSHER_APP_KEY: KEY, PUSHER_APP_SECRET: SECRET, ...env });
  const app = Fastify({ logger: false });
  // The app's route contracts and error answers (src/server/app.ts does the same).
  applyContracts(app);
  installErrorHandler(app, config);
  // Stands in for the session plugin: the signed-in user comes from a test header.
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-test-user'];
    request.user = typeof header === 'string' ? (JSON.parse(header) as AuthUser) : null;
  });
  const realtime = await registerRealtime(app, { config, database, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  cleanups.push(() => app.close());
  return { app, realtime, port, base: `http://127.0.0.1:${port}` };
}

function connectPusher(server: TestServer, user: AuthUser | null): Pusher {
  const headers = user ? { 'x-test-user': JSON.stringify(user) } : {};
  const client = new Pusher(KEY, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: server.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: { endpoint: `${server.base}/broadcasting/auth`, transport: 'ajax', headers },
    userAuthentication: { endpoint: `${server.base}/broadcasting/user-auth`, transport: 'ajax', headers },
  });
  cleanups.push(() => client.disconnect());
  return client;
}

async function connected(client: Pusher): Promise<string> {
  if (client.connection.state !== 'connected') await next(client.connection, 'connected');
  return client.connection.socket_id;
}

async function subscribed(channel: Channel): Promise<any> {
  return next(channel, 'pusher:subscription_succeeded');
}

/** A bare websocket that records every frame, for what pusher-js hides (raw frames, forged signatures, close codes). */
class RawClient {
  readonly frames: Array<{ event: string; channel?: string; data: string; [key: string]: unknown }> = [];
  readonly ws: WebSocket;
  closeCode: number | undefined;
  private waiters: Array<() => void> = [];

  constructor(server: TestServer, key = KEY, query = 'protocol=7&client=js&version=8.6.0') {
    this.ws = new WebSocket(`ws://127.0.0.1:${server.port}/app/${key}?${query}`);
    this.ws.on('message', (raw) => {
      this.frames.push(JSON.parse(raw.toString()));
      this.wake();
    });
    this.ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
    cleanups.push(() => this.ws.terminate());
  }

  send(event: string, data: unknown, channel?: string): void {
    this.ws.send(JSON.stringify({ event, data, ...(channel ? { channel } : {}) }));
  }

  async frame(event: string, ms = 5_000): Promise<{ event: string; channel?: string; data: string }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const index = this.frames.findIndex((frame) => frame.event === event);
      if (index >= 0) return this.frames.splice(index, 1)[0]!;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for frame ${event}; got ${JSON.stringify(this.frames)}`);
      await this.until(deadline);
    }
  }

  async closed(ms = 5_000): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closeCode === undefined) {
      if (Date.now() > deadline) throw new Error('timed out waiting for close');
      await this.until(deadline);
    }
    return this.closeCode;
  }

  async socketId(): Promise<string> {
    const established = await this.frame('pusher:connection_established');
    return JSON.parse(established.data).socket_id;
  }

  private until(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

async function postAuth(
  server: TestServer,
  route: 'auth' | 'user-auth',
  body: Record<string, string>,
  user: AuthUser | null,
  json = false,
) {
  const response = await fetch(`${server.base}/broadcasting/${route}`, {
    method: 'POST',
    headers: {
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      ...(user ? { 'x-test-user': JSON.stringify(user) } : {}),
    },
    body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  return { status: response.status, body: await response.json() };
}

describe('realtime hub on PGlite', () => {
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'realtime-test-'));
    database = await openDatabase({ databaseUrl: undefined, dataDir });
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('establishes a protocol 7 connection with data as a JSON string', async () => {
    const server = await startServer(database);
    const raw = new RawClient(server);
    const established = await raw.frame('pusher:connection_established');
    expect(typeof established.data).toBe('string');
    const data = JSON.parse(established.data);
    expect(data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(data.activity_timeout).toBe(30);

    const client = connectPusher(server, null);
    expect(await connected(client)).toMatch(/^\d+\.\d+$/);
  });

  it('refuses a wrong app key with 4001 and an unsupported protocol with 4007', async () => {
    const server = await startServer(database);
    const wrongKey = new RawClient(server, 'not-the-key');
    const error = await wrongKey.frame('pusher:error');
    expect(JSON.parse(error.data)).toMatchObject({ code: 4001 });
    expect(await wrongKey.closed()).toBe(4001);

    const oldProtocol = new RawClient(server, KEY, 'protocol=5');
    expect(JSON.parse((await oldProtocol.frame('pusher:error')).data)).toMatchObject({ code: 4007 });
    expect(await oldProtocol.closed()).toBe(4007);
  });

  it('lets a user join their own private channel and delivers published events to it', async () => {
    const server = await startServer(database);
    const client = connectPusher(server, makeUser(7));
    const channel = client.subscribe('private-App.Models.User.7');
    await subscribed(channel);
    const publicChannel = client.subscribe('sites');
    await subscribed(publicChannel);

    const received = next(channel, 'App.Events.ModelUpdated');
    const receivedPublic = next(publicChannel, 'App.Events.ModelCreated');
    const payload = { type: 'site', id: 12, data: { name: 'Tower 9', notes: 'ünïcödé' } };
    await server.realtime.publish(['private-App.Models.User.7'], 'App.Events.ModelUpdated', payload);
    await server.realtime.publish(['sites'], 'App.Events.ModelCreated', { type: 'site', id: 13 });
    expect(await received).toEqual(payload);
    expect(await receivedPublic).toEqual({ type: 'site', id: 13 });
  });

  it('refuses a user without rights, and keeps events from them', async () => {
    const server = await startServer(database);
    const intruder = connectPusher(server, makeUser(8, 2));
    const channel = intruder.subscribe('private-App.Models.User.7');
    const error = await next(channel, 'pusher:subscription_error');
    expect(error).toMatchObject({ type: 'AuthError', status: 403 });

    const roleChannel = intruder.subscribe('private-App.Models.Role.2');
    await subscribed(roleChannel);
    const otherRole = intruder.subscribe('private-App.Models.Role.3');
    expect(await next(otherRole, 'pusher:subscription_error')).toMatchObject({ status: 403 });

    let leaked = false;
    channel.bind('secret', () => (leaked = true));
    const roleEvent = next(roleChannel, 'secret');
    await server.realtime.publish(['private-App.Models.User.7', 'private-App.Models.Role.2'], 'secret', { n: 1 });
    expect(await roleEvent).toEqual({ n: 1 });
    expect(leaked).toBe(false);
  });

  it('checks signatures on the socket itself, not only at the auth endpoint', async () => {
    const server = await startServer(database);
    const raw = new RawClient(server);
    const socketId = await raw.socketId();

    raw.send('pusher:subscribe', {
      channel: 'private-App.Models.User.7',
      auth: `${KEY}:${hmac(`1.1:private-App.Models.User.7`)}`,
    });
    const error = await raw.frame('pusher:subscription_error');
    expect(error.channel).toBe('private-App.Models.User.7');
    expect(JSON.parse(error.data)).toMatchObject({ type: 'AuthError', status: 401 });

    raw.send('pusher:subscribe', {
      channel: 'private-App.Models.User.7',
      auth: `${KEY}:${hmac(`${socketId}:private-App.Models.User.7`)}`,
    });
    const ok = await raw.frame('pusher_internal:subscription_succeeded');
    expect(ok).toEqual({
      event: 'pusher_internal:subscription_succeeded',
      channel: 'private-App.Models.User.7',
      data: '{}',
    });

    raw.send('pusher:unsubscribe', { channel: 'private-App.Models.User.7' });
    raw.send('pusher:ping', {});
    await raw.frame('pusher:pong');
    await server.realtime.publish(['private-App.Models.User.7'], 'after-unsubscribe', {});
    raw.send('pusher:ping', {});
    await raw.frame('pusher:pong');
    expect(raw.frames.filter((frame) => frame.event === 'after-unsubscribe')).toEqual([]);
  });

  it('tells presence members about each other joining and leaving', async () => {
    const server = await startServer(database);
    server.realtime.addChannelRule(/^presence-site\.(\d+)$/, (user, match) => ({
      name: user.name,
      site: Number(match[1]),
    }));

    const alice = connectPusher(server, makeUser(1));
    const aliceChannel = alice.subscribe('presence-site.5') as PresenceChannel;
    const aliceMembers = await subscribed(aliceChannel);
    expect(aliceMembers.count).toBe(1);
    expect(aliceMembers.me).toEqual({ id: '1', info: { name: 'First1 Last1', site: 5 } });

    const added = next(aliceChannel, 'pusher:member_added');
    const bob = connectPusher(server, makeUser(2));
    const bobChannel = bob.subscribe('presence-site.5') as PresenceChannel;
    const bobMembers = await subscribed(bobChannel);
    expect(bobMembers.count).toBe(2);
    expect(bobMembers.members).toEqual({
      '1': { name: 'First1 Last1', site: 5 },
      '2': { name: 'First2 Last2', site: 5 },
    });
    expect(await added).toEqual({ id: '2', info: { name: 'First2 Last2', site: 5 } });

    const removed = next(aliceChannel, 'pusher:member_removed');
    bob.disconnect();
    expect(await removed).toEqual({ id: '2', info: { name: 'First2 Last2', site: 5 } });
    expect(aliceChannel.members.count).toBe(1);
  });

  it('answers pings, and pings then drops a silent client', async () => {
    const server = await startServer(database, { activityTimeoutSeconds: 0.3, pongTimeoutSeconds: 0.3 });
    const silent = new RawClient(server);
    await silent.socketId();
    silent.send('pusher:ping', {});
    expect(await silent.frame('pusher:pong')).toEqual({ event: 'pusher:pong', data: '{}' });

    const answering = new RawClient(server);
    await answering.socketId();
    answering.ws.on('message', (raw) => {
      if (JSON.parse(raw.toString()).event === 'pusher:ping') answering.send('pusher:pong', {});
    });

    expect(await silent.frame('pusher:ping')).toEqual({ event: 'pusher:ping', data: '{}' });
    expect(await silent.closed()).toBe(4201);
    await answering.frame('pusher:ping');
    await answering.frame('pusher:ping');
    expect(answering.closeCode).toBeUndefined();
  });

  it('refuses client events by default', async () => {
    const server = await startServer(database);
    const client = connectPusher(server, makeUser(7));
    const channel = client.subscribe('private-App.Models.User.7');
    await subscribed(channel);
    const error = next(client.connection, 'error');
    channel.trigger('client-typing', { text: 'hi' });
    expect(await error).toMatchObject({ type: 'PusherError', data: { code: 4301 } });
  });

  it('relays client events between members when enabled, but never on public channels', async () => {
    const server = await startServer(database, { clientEvents: true });
    server.realtime.addChannelRule(/^presence-chat$/, () => true);
    const alice = connectPusher(server, makeUser(1));
    const bob = connectPusher(server, makeUser(2));
    const aliceChannel = alice.subscribe('presence-chat');
    const bobChannel = bob.subscribe('presence-chat');
    await Promise.all([subscribed(aliceChannel), subscribed(bobChannel)]);

    let echoed = false;
    aliceChannel.bind('client-typing', () => (echoed = true));
    const heard = new Promise<{ data: unknown; metadata: unknown }>((resolve) =>
      bobChannel.bind('client-typing', (data: unknown, metadata: unknown) => resolve({ data, metadata })),
    );
    aliceChannel.trigger('client-typing', { text: 'hi' });
    expect(await heard).toEqual({ data: { text: 'hi' }, metadata: { user_id: '1' } });
    expect(echoed).toBe(false);

    const raw = new RawClient(server);
    await raw.socketId();
    raw.send('pusher:subscribe', { channel: 'lobby' });
    await raw.frame('pusher_internal:subscription_succeeded');
    raw.send('client-typing', { text: 'hi' }, 'lobby');
    expect(JSON.parse((await raw.frame('pusher:error')).data)).toMatchObject({ code: 4301 });
  });

  it('signs a user in and reaches them on their server-to-user channel', async () => {
    const server = await startServer(database);
    const client = connectPusher(server, makeUser(7));
    await connected(client);
    client.signin();
    const deadline = Date.now() + 5_000;
    while (!(client.user as any).serverToUserChannel?.subscribed) {
      if (Date.now() > deadline) throw new Error('sign-in did not complete');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(client.user.user_data).toEqual({ id: '7', user_info: { name: 'First7 Last7' } });

    const notice = next(client.user, 'notice');
    await server.realtime.publish(['#server-to-user-7'], 'notice', { text: 'for you' });
    expect(await notice).toEqual({ text: 'for you' });

    const raw = new RawClient(server);
    const socketId = await raw.socketId();
    const forged = JSON.stringify({ id: '7' });
    raw.send('pusher:signin', { user_data: forged, auth: `${KEY}:${hmac(`9.9::user::${forged}`)}` });
    expect(JSON.parse((await raw.frame('pusher:error')).data)).toMatchObject({ code: 4009 });
    raw.send('pusher:subscribe', { channel: '#server-to-user-7' });
    expect(JSON.parse((await raw.frame('pusher:subscription_error')).data)).toMatchObject({ status: 403 });
    raw.send('pusher:signin', { user_data: forged, auth: `${KEY}:${hmac(`${socketId}::user::${forged}`)}` });
    expect(JSON.parse((await raw.frame('pusher:signin_success')).data)).toEqual({ user_data: forged });
  });

  it('answers the auth endpoints with signatures, 401, 403 and 422', async () => {
    const server = await startServer(database);
    server.realtime.addChannelRule(/^presence-team\.(\d+)$/, (user, match) => user.team_ids.includes(Number(match[1])));
    const member = { ...makeUser(4), team_ids: [3] };

    expect(
      await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'private-App.Models.User.4' }, null),
    ).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.' },
    });
    expect((await postAuth(server, 'user-auth', { socket_id: '1.2' }, null)).status).toBe(401);

    expect(
      await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'private-App.Models.User.4' }, member),
    ).toEqual({
      status: 200,
      body: { auth: `${KEY}:${hmac('1.2:private-App.Models.User.4')}` },
    });
    expect(
      await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'private-App.Models.User.5' }, member, true),
    ).toEqual({
      status: 403,
      body: { message: 'This action is unauthorized.' },
    });
    expect((await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'private-unruled' }, member)).status).toBe(
      403,
    );
    expect((await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'presence-team.4' }, member)).status).toBe(
      403,
    );

    const presence = await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'presence-team.3' }, member);
    expect(presence.status).toBe(200);
    expect(JSON.parse(presence.body.channel_data)).toEqual({
      user_id: '4',
      user_info: { id: 4, name: 'First4 Last4' },
    });
    expect(presence.body.auth).toBe(`${KEY}:${hmac(`1.2:presence-team.3:${presence.body.channel_data}`)}`);

    const userAuth = await postAuth(server, 'user-auth', { socket_id: '3.4' }, member, true);
    expect(userAuth.status).toBe(200);
    expect(JSON.parse(userAuth.body.user_data)).toEqual({ id: '4', user_info: { name: 'First4 Last4' } });
    expect(userAuth.body.auth).toBe(`${KEY}:${hmac(`3.4::user::${userAuth.body.user_data}`)}`);

    expect(await postAuth(server, 'auth', { socket_id: 'abc', channel_name: 'private-x y' }, member)).toEqual({
      status: 422,
      body: {
        message: 'The socket id field format is invalid. (and 1 more error)',
        errors: {
          socket_id: ['The socket id field format is invalid.'],
          channel_name: ['The channel name field format is invalid.'],
        },
      },
    });
    const tooLong = await postAuth(
      server,
      'auth',
      { socket_id: '1.2', channel_name: `private-${'a'.repeat(200)}` },
      member,
    );
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.channel_name[0]).toMatch(/200 characters/);
    const publicChannel = await postAuth(server, 'auth', { socket_id: '1.2', channel_name: 'sites' }, member);
    expect(publicChannel.status).toBe(422);
    expect(Object.keys(publicChannel.body.errors)).toEqual(['channel_name']);
    expect(await postAuth(server, 'user-auth', {}, member)).toEqual({
      status: 422,
      body: {
        message: 'The socket id field is required.',
        errors: { socket_id: ['The socket id field is required.'] },
      },
    });
  });

  it('skips the sender when asked to, and closes sockets asking them to reconnect on shutdown', async () => {
    const server = await startServer(database);
    const sender = new RawClient(server);
    const senderId = await sender.socketId();
    const other = new RawClient(server);
    await other.socketId();
    for (const raw of [sender, other]) {
      raw.send('pusher:subscribe', { channel: 'sites' });
      await raw.frame('pusher_internal:subscription_succeeded');
    }
    await server.realtime.publish(['sites'], 'App.Events.ModelSaved', { id: 1 }, { exceptSocketId: senderId });
    expect(await other.frame('App.Events.ModelSaved')).toEqual({
      event: 'App.Events.ModelSaved',
      channel: 'sites',
      data: '{"id":1}',
    });
    sender.send('pusher:ping', {});
    await sender.frame('pusher:pong');
    expect(sender.frames.some((frame) => frame.event === 'App.Events.ModelSaved')).toBe(false);

    await server.app.close();
    expect(await other.closed()).toBe(4200);
  });

  it('refuses to start without any signing secret', async () => {
    const app = Fastify({ logger: false });
    cleanups.push(() => app.close());
    const config = loadConfig({ NODE_ENV: 'test' });
    await expect(registerRealtime(app, { config, database })).rejects.toThrow(/PUSHER_APP_SECRET or APP_KEY/);
    // The app key is enough: the app passes a generated one when PUSHER_APP_SECRET is unset.
    const withAppKey = Fastify({ logger: false });
    cleanups.push(() => withAppKey.close());
    await expect(
      registerRealtime(withAppKey, { config: { ...config, appKey: 'generated' }, database }),
    ).resolves.toBeDefined();
  });
});

describe('publishing to an outside Pusher service', () => {
  it('posts to the Pusher HTTP API in batches of 100 channels', async () => {
    const fake = Fastify({ logger: false });
    const posts: Array<{ url: string; body: any }> = [];
    fake.post('/apps/:appId/events', async (request) => {
      posts.push({ url: request.url, body: request.body });
      return {};
    });
    await fake.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => fake.close());
    const fakePort = (fake.server.address() as AddressInfo).port;

    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'realtime-external-'));
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(() => database.close());
    const server = await startServer(
      database,
      {},
      {
        PUSHER_APP_ID: '4242',
        PUSHER_HOST: '127.0.0.1',
        PUSHER_PORT: String(fakePort),
        PUSHER_SCHEME: 'http',
      },
    );

    const channels = Array.from({ length: 150 }, (_, index) => `private-App.Models.User.${index}`);
    await server.realtime.publish(channels, 'App.Events.SystemUpdated', { version: '2' }, { exceptSocketId: '12.34' });
    expect(posts).toHaveLength(2);
    expect(
      posts.every((post) => post.url.startsWith('/apps/4242/events?') && post.url.includes(`auth_key=${KEY}`)),
    ).toBe(true);
    expect(posts.map((post) => post.body.channels.length).sort()).toEqual([100, 50].sort());
    expect(posts.flatMap((post) => post.body.channels).sort()).toEqual([...channels].sort());
    for (const post of posts) {
      expect(post.body).toMatchObject({
        name: 'App.Events.SystemUpdated',
        data: '{"version":"2"}',
        socket_id: '12.34',
      });
    }
    // A fresh embedded database of its own is migrated and seeded first: on a busy machine that alone passes 30 s.
  }, 120_000);
});

describe('two server processes on one PostgreSQL', () => {
  const postgres = startPostgres();
  let server: PostgresServer | undefined;

  beforeAll(async () => {
    server = (await postgres) ?? undefined;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** Two databases on the one server, as two processes have; closed after the test. */
  async function twoConnections() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'realtime-pg-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const databaseA = await openDatabase({ databaseUrl: server!.url, dataDir });
    const databaseB = await openDatabase({ databaseUrl: server!.url, dataDir });
    cleanups.push(
      () => databaseA.close(),
      () => databaseB.close(),
    );
    return [databaseA, databaseB] as const;
  }

  it.skipIf(!postgres)(
    'delivers events published by one process to sockets on the other, large ones whole',
    async () => {
      const [databaseA, databaseB] = await twoConnections();
      expect(databaseA.kind).toBe('postgres');

      const serverA = await startServer(databaseA);
      const serverB = await startServer(databaseB);
      const client = connectPusher(serverA, makeUser(7));
      const channel = client.subscribe('private-App.Models.User.7');
      await subscribed(channel);

      const small = next(channel, 'App.Events.ModelUpdated');
      await serverB.realtime.publish(['private-App.Models.User.7'], 'App.Events.ModelUpdated', {
        type: 'site',
        id: 1,
        data: { name: 'A' },
      });
      expect(await small).toEqual({ type: 'site', id: 1, data: { name: 'A' } });

      // Bigger than PostgreSQL's 8000-byte NOTIFY limit: must still arrive whole, and in order with what follows.
      const big = { type: 'import', id: 2, data: { rows: 'x'.repeat(20_000) } };
      const order: string[] = [];
      const bothArrived = new Promise<void>((resolve) => {
        channel.bind('App.Events.ImportComplete', (data: typeof big) => {
          order.push(data.data.rows === big.data.rows ? 'big' : 'corrupt');
        });
        channel.bind('App.Events.ModelSaved', () => {
          order.push('small');
          resolve();
        });
      });
      await serverB.realtime.publish(['private-App.Models.User.7'], 'App.Events.ImportComplete', big);
      await serverB.realtime.publish(['private-App.Models.User.7'], 'App.Events.ModelSaved', { id: 3 });
      await bothArrived;
      expect(order).toEqual(['big', 'small']);
    },
  );

  it.skipIf(!postgres)('shows presence on one record to people connected to different processes', async () => {
    const [databaseA, databaseB] = await twoConnections();
    const serverA = await startServer(databaseA);
    const serverB = await startServer(databaseB);
    for (const each of [serverA, serverB])
      each.realtime.addChannelRule(/^presence-site\.(\d+)$/, (user) => ({ name: user.name }));

    const alice = connectPusher(serverA, makeUser(21));
    const aliceChannel = alice.subscribe('presence-site.9') as PresenceChannel;
    await subscribed(aliceChannel);
    await new Promise((resolve) => setTimeout(resolve, 300)); // Alice's join travels to B by NOTIFY

    const bob = connectPusher(serverB, makeUser(22));
    const bobArrives = next(aliceChannel, 'pusher:member_added');
    const bobChannel = bob.subscribe('presence-site.9') as PresenceChannel;
    const bobSees = await subscribed(bobChannel);
    expect(Object.keys(bobSees.members).sort()).toEqual(['21', '22']);
    expect((await bobArrives).id).toBe('22');

    // A third person starting on B after both joined still sees both (B learnt of Alice from A).
    const carol = connectPusher(serverB, makeUser(23));
    const carolChannel = carol.subscribe('presence-site.9') as PresenceChannel;
    expect(Object.keys((await subscribed(carolChannel)).members).sort()).toEqual(['21', '22', '23']);

    const aliceLeaves = next(bobChannel, 'pusher:member_removed');
    alice.unsubscribe('presence-site.9');
    expect((await aliceLeaves).id).toBe('21');

    // Her last socket going (the browser closed) is a leave too.
    alice.subscribe('presence-site.9');
    await next(carolChannel, 'pusher:member_added');
    const aliceGone = next(bobChannel, 'pusher:member_removed');
    alice.disconnect();
    expect((await aliceGone).id).toBe('21');
    expect(bobChannel.members.count).toBe(2);
  });

  it.skipIf(!postgres)('a process that started late learns who is already present', async () => {
    const [databaseA, databaseB] = await twoConnections();
    const serverA = await startServer(databaseA);
    serverA.realtime.addChannelRule(/^presence-site\.(\d+)$/, (user) => ({ name: user.name }));
    const alice = connectPusher(serverA, makeUser(31));
    await subscribed(alice.subscribe('presence-site.10'));

    const serverB = await startServer(databaseB);
    serverB.realtime.addChannelRule(/^presence-site\.(\d+)$/, (user) => ({ name: user.name }));
    const bob = connectPusher(serverB, makeUser(32));
    // B asked the others on start; their answer may still be on its way when Bob subscribes.
    await expect
      .poll(
        async () => {
          const channel = bob.subscribe(`presence-site.10`) as PresenceChannel;
          const members = Object.keys((await subscribed(channel)).members).sort();
          bob.unsubscribe('presence-site.10');
          return members;
        },
        { timeout: 5_000 },
      )
      .toEqual(['31', '32']);
  });
});
