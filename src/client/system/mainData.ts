/**
 * Main data of SPEC section 4: config, features, schemas and statistics. Each loads once, and a repeat
 * request while one is running is ignored (the running request is shared). The app is ready when config,
 * features and schemas have loaded. A failed load is only logged (SPEC section 8) and counts as loaded, so
 * a missing endpoint never leaves the app on its spinner.
 */
import type { Feature, Schema, Statistics, SystemConfig } from './types';

export type MainDataKey = 'config' | 'features' | 'schemas' | 'statistics';

export interface MainDataLoaders {
  config: () => Promise<SystemConfig>;
  features: () => Promise<Feature[]>;
  schemas: () => Promise<Schema[]>;
  statistics: () => Promise<Statistics>;
}

export interface MainDataState {
  config: SystemConfig | null;
  features: Feature[];
  schemas: Schema[];
  statistics: Statistics;
  /** Which parts have finished loading at least once (successfully or not). */
  loaded: Record<MainDataKey, boolean>;
}

const ERROR_LABELS: Record<MainDataKey, string> = {
  config: 'Error loading system configuration:',
  features: 'Error loading features:',
  schemas: 'Error loading schemas:',
  statistics: 'Error loading dashboard statistics:',
};

export class MainDataStore {
  private state: MainDataState = {
    config: null,
    features: [],
    schemas: [],
    statistics: {},
    loaded: { config: false, features: false, schemas: false, statistics: false },
  };
  private running: Partial<Record<MainDataKey, Promise<void>>> = {};
  private listeners = new Set<() => void>();

  constructor(
    private readonly loaders: MainDataLoaders,
    private readonly log: (...args: unknown[]) => void = console.error,
  ) {}

  getState = (): MainDataState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private patch(part: Partial<MainDataState>): void {
    this.state = { ...this.state, ...part };
    for (const listener of this.listeners) listener();
  }

  isRunning(key: MainDataKey): boolean {
    return this.running[key] !== undefined;
  }

  /** Load (or reload) one part; while it runs, further calls share the running request. */
  load(key: MainDataKey): Promise<void> {
    const running = this.running[key];
    if (running) return running;
    const promise = (async () => {
      try {
        const value = await this.loaders[key]();
        this.patch({
          [key]: normalise(key, value),
          loaded: { ...this.state.loaded, [key]: true },
        } as Partial<MainDataState>);
      } catch (error) {
        this.log(ERROR_LABELS[key], error);
        this.patch({ loaded: { ...this.state.loaded, [key]: true } });
      } finally {
        delete this.running[key];
      }
    })();
    this.running[key] = promise;
    return promise;
  }

  /**
   * Take parts from an answer already on its way (the start answer, app/startAnswer.ts) instead of their own
   * requests, all in one change (the app's route table follows the record types: config without them would build it
   * twice). A part the answer leaves out stays unloaded, for `ensure` to load. Parts loaded or loading are left alone.
   */
  adopt(keys: readonly MainDataKey[], answer: Promise<Partial<Record<MainDataKey, unknown>>>): void {
    const taken = keys.filter((key) => !this.running[key] && !this.state.loaded[key]);
    const promise = (async () => {
      try {
        const parts = await answer;
        const next: Partial<MainDataState> = { loaded: { ...this.state.loaded } };
        for (const key of taken) {
          if (parts[key] === undefined) continue;
          (next as Record<string, unknown>)[key] = normalise(key, parts[key]);
          next.loaded![key] = true;
        }
        this.patch(next);
      } catch (error) {
        for (const key of taken) this.log(ERROR_LABELS[key], error);
        this.patch({ loaded: { ...this.state.loaded, ...Object.fromEntries(taken.map((key) => [key, true])) } });
      } finally {
        for (const key of taken) delete this.running[key];
      }
    })();
    for (const key of taken) this.running[key] = promise;
  }

  /**
   * Ask for parts again and leave what the app holds as it is: the answers only pass through the offline service
   * worker, which keeps them for a start with no connection (changing the app's record types would rebuild its routes).
   */
  async warm(keys: readonly MainDataKey[]): Promise<void> {
    await Promise.all(keys.map((key) => this.loaders[key]().catch(() => undefined)));
  }

  /** Load once: does nothing when the part has loaded already (waits for one on its way first). */
  async ensure(key: MainDataKey): Promise<void> {
    const running = this.running[key];
    if (running) await running;
    if (!this.state.loaded[key]) await this.load(key);
  }

  /** Config, features and schemas: what the app waits for. */
  async ready(): Promise<void> {
    await Promise.all([this.ensure('config'), this.ensure('features'), this.ensure('schemas')]);
  }

  get isReady(): boolean {
    const { loaded } = this.state;
    return loaded.config && loaded.features && loaded.schemas;
  }

  /** After sign-out: forget what belongs to the person (config stays). */
  resetPrivate(): void {
    this.patch({
      features: [],
      schemas: [],
      statistics: {},
      loaded: { config: this.state.loaded.config, features: false, schemas: false, statistics: false },
    });
  }
}

function normalise(key: MainDataKey, value: unknown): unknown {
  if (key === 'features' || key === 'schemas') return Array.isArray(value) ? value : [];
  if (key === 'statistics') return value && typeof value === 'object' ? value : {};
  return value;
}

export function isFeatureEnabled(features: readonly Feature[], slug: string): boolean {
  return features.some((feature) => feature.slug === slug && feature.enabled);
}

export function schemaFor(schemas: readonly Schema[], type: string): Schema | undefined {
  return schemas.find((schema) => schema.type === type);
}
