import { describe, expect, it } from 'vitest';
import { isFeatureEnabled, MainDataStore } from '../../../src/client/system/mainData';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('main data', () => {
  it('each part loads once; repeat requests while one runs are ignored', async () => {
    const calls = { config: 0, features: 0, schemas: 0, statistics: 0 };
    const gate = deferred<any[]>();
    const store = new MainDataStore({
      config: async () => (calls.config++, { name: 'X' }),
      features: () => (calls.features++, gate.promise),
      schemas: async () => (calls.schemas++, [{ id: 1, type: 'site', name_singular: 'Site', name_plural: 'Sites' }]),
      statistics: async () => (calls.statistics++, { tasks_open: 1 }),
    });
    const first = store.ready();
    const second = store.ready();
    void store.load('features');
    expect(store.isReady).toBe(false);
    gate.resolve([{ id: 1, slug: 'map', name: 'Map', enabled: true }]);
    await Promise.all([first, second]);
    expect(calls).toEqual({ config: 1, features: 1, schemas: 1, statistics: 0 });
    expect(store.isReady).toBe(true);
    await store.ready();
    expect(calls.features).toBe(1);
    expect(isFeatureEnabled(store.getState().features, 'map')).toBe(true);
  });

  it('statistics reload on demand but share a running request', async () => {
    let count = 0;
    const store = new MainDataStore({
      config: async () => ({ name: 'X' }),
      features: async () => [],
      schemas: async () => [],
      statistics: async () => ({ tasks_open: ++count }),
    });
    await Promise.all([store.load('statistics'), store.load('statistics')]);
    expect(count).toBe(1);
    await store.load('statistics');
    expect(count).toBe(2);
    expect(store.getState().statistics.tasks_open).toBe(2);
  });

  it('a failed load is only logged and never blocks readiness', async () => {
    const logged: unknown[][] = [];
    const store = new MainDataStore(
      {
        config: async () => ({ name: 'X' }),
        features: async () => {
          throw new Error('404');
        },
        schemas: async () => [],
        statistics: async () => {
          throw new Error('boom');
        },
      },
      (...args) => logged.push(args),
    );
    await store.ready();
    await store.load('statistics');
    expect(store.isReady).toBe(true);
    expect(store.getState().features).toEqual([]);
    expect(logged.map((entry) => entry[0])).toEqual(['Error loading features:', 'Error loading dashboard statistics:']);
  });

  it('notifies subscribers and forgets private data on reset', async () => {
    const store = new MainDataStore({
      config: async () => ({ name: 'X' }),
      features: async () => [{ id: 1, slug: 'map', name: 'Map', enabled: true }],
      schemas: async () => [],
      statistics: async () => ({}),
    });
    let notified = 0;
    store.subscribe(() => notified++);
    await store.ready();
    expect(notified).toBeGreaterThan(0);
    store.resetPrivate();
    expect(store.getState().features).toEqual([]);
    expect(store.getState().loaded.config).toBe(true);
    expect(store.isReady).toBe(false);
  });

  it('parts taken from the start answer are not asked for; a part it left out loads when needed', async () => {
    const calls = { config: 0, features: 0, schemas: 0, statistics: 0 };
    const start = deferred<{ config?: any; schemas?: any[] }>();
    const store = new MainDataStore({
      config: async () => (calls.config++, { name: 'Asked' }),
      features: async () => (calls.features++, [{ id: 1, slug: 'map', name: 'Map', enabled: true }]),
      schemas: async () => (calls.schemas++, []),
      statistics: async () => (calls.statistics++, {}),
    });
    const changes: Array<Record<string, boolean>> = [];
    store.subscribe(() => changes.push({ ...store.getState().loaded }));
    store.adopt(['config', 'features', 'schemas'], start.promise);
    const ready = store.ready();
    expect(store.isReady).toBe(false);
    start.resolve({
      config: { name: 'Started' },
      schemas: [{ id: 1, type: 'site', name_singular: 'Site', name_plural: 'Sites' }],
    });
    await ready;
    // Config and record types arrive in one change.
    expect(changes[0]).toEqual({ config: true, features: false, schemas: true, statistics: false });
    expect(store.isReady).toBe(true);
    expect(store.getState().config?.name).toBe('Started');
    expect(store.getState().schemas).toHaveLength(1);
    expect(isFeatureEnabled(store.getState().features, 'map')).toBe(true);
    expect(calls).toEqual({ config: 0, features: 1, schemas: 0, statistics: 0 });
  });
  it('warming asks the parts again and leaves what the app holds, and never fails', async () => {
    let schemaReads = 0;
    const store = new MainDataStore(
      {
        config: async () => ({ name: 'X' }),
        features: async () => {
          throw new Error('offline');
        },
        schemas: async () => (
          schemaReads++, [{ id: schemaReads, type: 'site', name_singular: 'Site', name_plural: 'Sites' }]
        ),
        statistics: async () => ({}),
      },
      () => undefined,
    );
    await store.ready();
    const before = store.getState();
    let notified = 0;
    store.subscribe(() => notified++);
    await store.warm(['config', 'features', 'schemas']);
    expect(schemaReads).toBe(2);
    expect(store.getState()).toBe(before);
    expect(notified).toBe(0);
  });
});
