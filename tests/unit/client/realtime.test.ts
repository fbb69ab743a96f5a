import { describe, expect, it } from 'vitest';
import {
  channelsFor,
  isResourceReadKey,
  normaliseEventName,
  planRealtimeEvent,
} from '../../../src/client/realtime/events';
import { pusherOptions } from '../../../src/client/realtime/pusherOptions';
import { resourceForType, typeForResource } from '../../../src/client/resources/names';

const me = { id: 7, role_id: 2, realtime_key: 'key-7' };

describe('realtime event mapping', () => {
  it('maps record types to resources in one table', () => {
    expect(resourceForType('site')).toBe('sites');
    expect(resourceForType('schema-field')).toBe('schema-fields');
    expect(resourceForType('site-status')).toBe('site-statuses');
    expect(resourceForType('contact-status')).toBe('contact-statuses');
    expect(resourceForType('user')).toBe('users');
    expect(resourceForType('assistant-thread')).toBe('assistant/threads');
    expect(resourceForType('widget')).toBe('widgets');
    expect(resourceForType('category')).toBe('categories');
    expect(typeForResource('site-phases')).toBe('site-phase');
  });

  it('normalises event names in any namespace form', () => {
    expect(normaliseEventName('App\\Events\\ModelSaved')).toBe('ModelSaved');
    expect(normaliseEventName('App.Events.ModelSaved')).toBe('ModelSaved');
    expect(normaliseEventName('.ModelSaved')).toBe('ModelSaved');
    expect(normaliseEventName('SystemUpdated')).toBe('SystemUpdated');
  });

  it('a model event refreshes that resource only', () => {
    for (const event of ['ModelCreated', 'ModelUpdated', 'ModelSaved', 'ModelDestroyed']) {
      const plan = planRealtimeEvent(`App\\Events\\${event}`, { type: 'site', id: 3, data: {} }, me);
      expect(plan).toEqual({ invalidate: ['sites'], reload: [], refreshSession: false, systemUpdated: false });
    }
  });

  it('features, schemas and statistics reload as SPEC section 4 says', () => {
    expect(planRealtimeEvent('ModelSaved', { type: 'feature', id: 1 }, me).reload).toEqual(['features']);
    expect(planRealtimeEvent('ModelSaved', { type: 'schema', id: 1 }, me).reload).toEqual(['schemas']);
    const field = planRealtimeEvent('ModelDestroyed', { type: 'schema-field', id: 1 }, me);
    expect(field.reload).toEqual(['schemas']);
    expect(field.invalidate).toEqual(['schema-fields', 'schemas']);
    expect(planRealtimeEvent('ModelSaved', { type: 'note', id: 1 }, me).reload).toEqual(['statistics']);
    expect(planRealtimeEvent('ModelCreated', { type: 'notification', id: 1 }, me).reload).toEqual(['statistics']);
    expect(planRealtimeEvent('ModelSaved', { type: 'task', id: 1 }, me).reload).toEqual(['statistics']);
  });

  it("the person's own user or role refreshes the session", () => {
    expect(planRealtimeEvent('ModelSaved', { type: 'user', id: 7 }, me).refreshSession).toBe(true);
    expect(planRealtimeEvent('ModelSaved', { type: 'user', id: '7' }, me).refreshSession).toBe(true);
    expect(
      planRealtimeEvent('ModelSaved', { type: 'user', id: 8, data: { realtime_key: 'key-7' } }, me).refreshSession,
    ).toBe(true);
    expect(planRealtimeEvent('ModelSaved', { type: 'user', id: 8 }, me).refreshSession).toBe(false);
    expect(planRealtimeEvent('ModelSaved', { type: 'role', id: 2 }, me).refreshSession).toBe(true);
    expect(planRealtimeEvent('ModelSaved', { type: 'role', id: 3 }, me).refreshSession).toBe(false);
    expect(planRealtimeEvent('ModelSaved', { type: 'role', id: 2 }, null).refreshSession).toBe(false);
  });

  it('system, import and assistant events', () => {
    expect(planRealtimeEvent('.SystemUpdated', {}, me).systemUpdated).toBe(true);
    expect(planRealtimeEvent('ImportComplete', { id: 1 }, me).invalidate).toEqual(['imports']);
    expect(planRealtimeEvent('AssistantMessage', {}, me).invalidate).toEqual([
      'assistant/threads',
      'assistant/messages',
    ]);
    expect(planRealtimeEvent('Unknown', {}, me)).toEqual({
      invalidate: [],
      reload: [],
      refreshSession: false,
      systemUpdated: false,
    });
    expect(planRealtimeEvent('ModelSaved', null, me).invalidate).toEqual([]);
  });

  it("matches react-admin's read query keys of one resource only", () => {
    expect(isResourceReadKey(['sites', 'getList', {}], 'sites')).toBe(true);
    expect(isResourceReadKey(['sites', 'getOne', { id: '1' }], 'sites')).toBe(true);
    expect(isResourceReadKey(['sites', 'getManyReference', {}], 'sites')).toBe(true);
    expect(isResourceReadKey(['sites', 'getMany', {}], 'sites')).toBe(true);
    expect(isResourceReadKey(['sites', 'getBoard', {}], 'sites')).toBe(true);
    expect(isResourceReadKey(['contacts', 'getList', {}], 'sites')).toBe(false);
    expect(isResourceReadKey(['auth', 'getPermissions'], 'sites')).toBe(false);
  });

  it('channels: own user, own role, public system', () => {
    expect(channelsFor(me)).toEqual({ user: 'App.Models.User.7', role: 'App.Models.Role.2', system: 'system' });
    expect(channelsFor({ id: 1, role_id: null }).role).toBeNull();
  });
});

describe('pusher options', () => {
  const location = { hostname: 'app.test', port: '8123', protocol: 'http:' };

  it('come from the config, same host and port by default', () => {
    const options = pusherOptions({ key: 'k', scheme: 'http' }, location, { fetch, csrfToken: async () => undefined });
    expect(options).toMatchObject({
      wsHost: 'app.test',
      wsPort: 8123,
      wssPort: 8123,
      forceTLS: false,
      enabledTransports: ['ws', 'wss'],
      disableStats: true,
    });
    const tls = pusherOptions({ key: 'k', host: 'ws.example.com', port: 443, scheme: 'https' }, location, {
      fetch,
      csrfToken: async () => undefined,
    });
    expect(tls).toMatchObject({ wsHost: 'ws.example.com', wsPort: 443, forceTLS: true });
  });

  it('authorise channels and users with a form POST, credentials and the CSRF header', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(url), init });
      return new Response(JSON.stringify({ auth: 'k:sig' }), { status: 200 });
    }) as typeof fetch;
    let token = 'first';
    const options = pusherOptions({ key: 'k' }, location, { fetch: fakeFetch, csrfToken: async () => token });
    const channelResult = await new Promise((resolve) =>
      options.channelAuthorization.customHandler(
        { socketId: '1.2', channelName: 'private-App.Models.User.7' },
        (error, data) => resolve({ error, data }),
      ),
    );
    expect(channelResult).toEqual({ error: null, data: { auth: 'k:sig' } });
    expect(calls[0]!.url).toBe('/broadcasting/auth');
    expect(calls[0]!.init.credentials).toBe('include');
    expect(calls[0]!.init.body).toBe('socket_id=1.2&channel_name=private-App.Models.User.7');
    expect((calls[0]!.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('first');
    token = 'second';
    await new Promise((resolve) => options.userAuthentication.customHandler({ socketId: '1.2' }, resolve));
    expect(calls[1]!.url).toBe('/broadcasting/user-auth');
    expect(calls[1]!.init.body).toBe('socket_id=1.2');
    expect((calls[1]!.init.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('second');
  });

  it('report a failed authorisation as an error', async () => {
    const denied = (async () => new Response('{}', { status: 403 })) as unknown as typeof fetch;
    const options = pusherOptions({ key: 'k' }, location, { fetch: denied, csrfToken: async () => 't' });
    const result = await new Promise<{ error: Error | null }>((resolve) =>
      options.channelAuthorization.customHandler({ socketId: '1', channelName: 'private-x' }, (error) =>
        resolve({ error }),
      ),
    );
    expect(result.error?.message).toMatch(/403/);
  });
});
