import { sql } from 'kysely';
import type { MarkerItem } from '../../common/map-types.js';
import { can, canOnEntity } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden, HttpError } from '../http/errors.js';
import type { FieldSpec } from '../records/resource.js';
import { contractorsDefinition, sitesDefinition } from './definitions.js';
import {
  canonicalFilters,
  contractorFilterConditions,
  type MapFilters,
  parseMapFilters,
  refusedSpecialFilters,
  siteFilterConditions,
} from './filters.js';
import { buildMarkerIndex, type MarkerIndex, queryMarkerIndex } from './marker-index.js';
import type { Layer } from './query-params.js';
import type { Viewport } from './viewport.js';

/** How many marker indexes stay in memory, and how many points they may hold together. */
const MAX_INDEXES = 6;
const MAX_CACHED_POINTS = 400_000;
/** Writes outside this process (another server process, a script) are noticed within this time. */
const FINGERPRINT_INTERVAL_MS = 1_000;
/** A safety net: an index is rebuilt at least this often whatever the version says. */
const INDEX_TTL_MS = 5 * 60_000;

interface CachedIndex {
  generation: number;
  promise: Promise<MarkerIndex>;
  index: MarkerIndex | null;
  /** What it was built for, to rebuild it after a change without waiting for the next request. */
  source: { user: AuthUser; layer: 'sites' | 'contractors'; filters: MapFilters };
}

/** After a change, this many of the most recently used indexes are rebuilt straight away (the rest on use). */
const REFRESH_AFTER_CHANGE = 2;
const REFRESH_DELAY_MS = 300;

export interface RegionMeasure {
  sites: number;
  union_sites: number;
  non_union_sites: number;
}

/** Site types counted as union work, and as non-union work, for the union share of a region. */
export const UNION_TYPES = ['union', 'pla'];
export const NON_UNION_TYPES = ['non-union'];

/**
 * Marker indexes per (layer × filter set × permission scope), kept in a small LRU and rebuilt when the data
 * changes. The version is a generation counter, bumped by the app's events (a site, contractor, region... written or
 * deleted: see map/index.ts) and by a fingerprint of the tables — `max(id)` and `max(updated_at)`
 * of sites, contractors and regions, read at most once a second — which notices writes made by another
 * process or straight to the database. Two requests for the same index share one build.
 */
export class MapService {
  generation = 0;
  private indexes = new Map<string, CachedIndex>();
  private measures = new Map<string, { generation: number; at: number; value: Promise<Map<number, RegionMeasure>> }>();
  private fingerprint: string | null = null;
  private fingerprintAt = 0;
  private fingerprintCheck: Promise<void> | null = null;
  private featureCache: { at: number; enabled: boolean } | null = null;

  constructor(private readonly ctx: AppContext) {}

  private refreshTimer: ReturnType<typeof setTimeout> | null = null;

  /** Something the indexes depend on changed: every index is rebuilt on its next use. */
  invalidate() {
    this.generation++;
    this.featureCache = null;
  }

  /**
   * A change was saved: besides invalidating, rebuild the most recently used indexes shortly (changes in a
   * burst, an import, make one rebuild), so the open maps that ask again after the realtime event usually
   * find a fresh index, or one already being built.
   */
  changed() {
    this.invalidate();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      const recent = [...this.indexes.values()].slice(-REFRESH_AFTER_CHANGE);
      for (const entry of recent) {
        if (entry.generation === this.generation) continue;
        this.markerIndex(entry.source.user, entry.source.layer, entry.source.filters).catch(() => undefined);
      }
    }, REFRESH_DELAY_MS);
    this.refreshTimer.unref?.();
  }

  async currentGeneration(): Promise<number> {
    if (Date.now() - this.fingerprintAt >= FINGERPRINT_INTERVAL_MS) {
      this.fingerprintCheck ??= this.checkFingerprint().finally(() => {
        this.fingerprintCheck = null;
      });
      await this.fingerprintCheck;
    }
    return this.generation;
  }

  private async checkFingerprint() {
    const row = await sql<Record<string, unknown>>`
      select (select max(id) from sites) as s_id, (select max(updated_at) from sites) as s_at,
             (select max(id) from contractors) as c_id, (select max(updated_at) from contractors) as c_at,
             (select max(id) from regions) as r_id, (select max(updated_at) from regions) as r_at,
             (select max(updated_at) from features) as f_at`.execute(this.ctx.db);
    const value = JSON.stringify(row.rows[0] ?? {});
    if (this.fingerprint !== null && value !== this.fingerprint) this.invalidate();
    this.fingerprint = value;
    this.fingerprintAt = Date.now();
  }

  // ---- access ---------------------------------------------------------------------------------------------

  /** The map is behind the `map` feature flag and the `map:read` permission. */
  async assertMapAccess(user: AuthUser | null) {
    if (!user) throw new HttpError(401, 'Unauthenticated.');
    if (!(await this.mapEnabled())) throw new HttpError(404, 'The map is switched off for this organisation.');
    if (!can(user, 'map:read')) throw forbidden('You do not have permission to read the map.');
  }

  private async mapEnabled(): Promise<boolean> {
    if (this.featureCache && Date.now() - this.featureCache.at < FINGERPRINT_INTERVAL_MS)
      return this.featureCache.enabled;
    const row = await this.ctx.db.selectFrom('features').select('enabled').where('slug', '=', 'map').executeTakeFirst();
    const enabled = row ? Boolean(row.enabled) : true;
    this.featureCache = { at: Date.now(), enabled };
    return enabled;
  }

  canReadSites(user: AuthUser) {
    return canOnEntity(user, sitesDefinition(this.ctx).permission ?? 'site', 'read');
  }

  canReadContractors(user: AuthUser) {
    return canOnEntity(user, contractorsDefinition(this.ctx).permission ?? 'contractor', 'read');
  }

  /** The site fields the person may see (their role's field rules): the map filters, searches and shows only these. */
  siteFields(user: AuthUser): Promise<Record<string, FieldSpec>> {
    return this.ctx.records.visibleFields(user, sitesDefinition(this.ctx));
  }

  /** The fields of a layer's records the person's role hides. */
  async hiddenFields(user: AuthUser, layer: 'sites' | 'contractors'): Promise<ReadonlySet<string>> {
    const def = layer === 'sites' ? sitesDefinition(this.ctx) : contractorsDefinition(this.ctx);
    return (await this.ctx.records.access.mask(user, def)).hidden;
  }

  /**
   * May the person see the layer's records on a map: read them, and see where they are (a role hiding a record's
   * latitude or longitude would learn it from its marker).
   */
  async drawable(user: AuthUser, layer: 'sites' | 'contractors'): Promise<boolean> {
    if (!(layer === 'sites' ? this.canReadSites(user) : this.canReadContractors(user))) return false;
    const hidden = await this.hiddenFields(user, layer);
    return !hidden.has('latitude') && !hidden.has('longitude');
  }

  /**
   * The map's filters from query parameters, checked against the site fields the person may see (custom fields
   * included): a hidden field, or the category of a hidden site type, is refused (422) as the list refuses it.
   */
  async filters(user: AuthUser, query: Record<string, unknown>): Promise<MapFilters> {
    const refused = refusedSpecialFilters(
      await this.hiddenFields(user, 'sites'),
      (await this.hiddenFields(user, 'contractors')).has('type'),
    );
    return parseMapFilters(query, sitesDefinition(this.ctx), await this.siteFields(user), refused);
  }

  // ---- markers --------------------------------------------------------------------------------------------

  /** The markers and clusters of a viewport for each layer the person may read, with totals and the data's bounds. */
  async markers(user: AuthUser, viewport: Viewport, layers: Layer[], filters: MapFilters) {
    const data: MarkerItem[] = [];
    const total: Record<string, number> = {};
    const inView: Record<string, number> = {};
    let countsByType: Record<string, number> = {};
    let bounds: [number, number, number, number] | null = null;
    for (const layer of layers) {
      if (!(await this.drawable(user, layer))) {
        total[layer] = 0;
        inView[layer] = 0;
        continue;
      }
      const index = await this.markerIndex(user, layer, filters);
      const items = queryMarkerIndex(index, viewport);
      total[layer] = index.total;
      inView[layer] = items.reduce((n, item) => n + (item.kind === 'cluster' ? item.count : 1), 0);
      if (layer === 'sites') countsByType = index.countsByType;
      if (index.bounds) {
        const b = index.bounds;
        bounds = bounds
          ? [Math.min(bounds[0], b[0]), Math.min(bounds[1], b[1]), Math.max(bounds[2], b[2]), Math.max(bounds[3], b[3])]
          : b;
      }
      for (const item of items) data.push(item);
    }
    return {
      data,
      meta: {
        zoom: viewport.zoom,
        bbox: viewport.bbox,
        layers,
        total,
        in_view: inView,
        counts_by_type: countsByType,
        bounds,
        clusters: data.filter((d) => d.kind === 'cluster').length,
        points: data.filter((d) => d.kind !== 'cluster').length,
        version: this.generation,
      },
    };
  }

  // ---- indexes --------------------------------------------------------------------------------------------

  /**
   * The permission scope of an index: which categories of the layer the person may read, or, when their rule says more
   * (their own, a team, a turf, a condition), the person themselves with their teams (joining or leaving a team gives
   * them the new turf's index at once) and their role's rules.
   */
  async scopeOf(user: AuthUser, layer: 'sites' | 'contractors'): Promise<string> {
    const def = layer === 'sites' ? sitesDefinition(this.ctx) : contractorsDefinition(this.ctx);
    const only = await this.ctx.records.access.onlyCategories(user, def);
    if (only !== null) return only === 'all' ? 'all' : JSON.stringify([...only].sort());
    const teams = [...new Set([...(user.team_ids ?? []), ...(user.team_id ? [user.team_id] : [])])].sort(
      (a, b) => a - b,
    );
    return `user:${user.id}|teams:${teams.join(',')}|${JSON.stringify((await this.ctx.records.access.of(user, def)).rules.read)}`;
  }

  /** The contractors the person may read, as a condition on the contractors alias `c` (for the filters on them). */
  readableContractor(user: AuthUser) {
    return this.ctx.records.access.condition(user, contractorsDefinition(this.ctx), 'c', 'with');
  }

  async markerIndex(user: AuthUser, layer: 'sites' | 'contractors', filters: MapFilters): Promise<MarkerIndex> {
    const generation = await this.currentGeneration();
    const scope =
      layer === 'sites'
        ? `${await this.scopeOf(user, 'sites')}|${await this.scopeOf(user, 'contractors')}`
        : await this.scopeOf(user, 'contractors');
    // The fields the role hides are blank in the index: two roles reading the same rows may not share it.
    const hidden = [...(await this.hiddenFields(user, layer))].sort().join(',');
    const key = `${layer}|${scope}|hidden:${hidden}|${canonicalFilters(filters)}`;
    const cached = this.indexes.get(key);
    if (
      cached &&
      cached.generation === generation &&
      (!cached.index || Date.now() - cached.index.builtAt < INDEX_TTL_MS)
    ) {
      this.indexes.delete(key); // LRU: most recently used last
      this.indexes.set(key, cached);
      return cached.promise;
    }
    const entry: CachedIndex = {
      generation,
      index: null,
      promise: this.build(user, layer, filters, key, generation),
      source: { user, layer, filters },
    };
    this.indexes.delete(key);
    this.indexes.set(key, entry);
    entry.promise.then(
      (index) => {
        entry.index = index;
        this.evict();
      },
      () => this.indexes.get(key) === entry && this.indexes.delete(key),
    );
    return entry.promise;
  }

  private async build(
    user: AuthUser,
    layer: 'sites' | 'contractors',
    filters: MapFilters,
    key: string,
    generation: number,
  ) {
    if (layer === 'sites') {
      const def = sitesDefinition(this.ctx);
      const fields = await this.siteFields(user);
      return buildMarkerIndex(
        'sites',
        await this.ctx.records.visibleRows(this.ctx.db, def, user),
        await siteFilterConditions(
          filters,
          this.ctx.records.filterScope(user, fields),
          await this.readableContractor(user),
        ),
        key,
        generation,
        await this.hiddenFields(user, 'sites'),
      );
    }
    const def = contractorsDefinition(this.ctx);
    return buildMarkerIndex(
      'contractors',
      await this.ctx.records.visibleRows(this.ctx.db, def, user),
      contractorFilterConditions(filters, await this.hiddenFields(user, 'contractors')),
      key,
      generation,
      await this.hiddenFields(user, 'contractors'),
    );
  }

  /** Oldest first: drop built indexes until at most MAX_INDEXES remain holding at most MAX_CACHED_POINTS. */
  private evict() {
    let points = 0;
    for (const entry of this.indexes.values()) points += entry.index?.total ?? 0;
    for (const [key, entry] of this.indexes) {
      if (this.indexes.size <= 1 || (this.indexes.size <= MAX_INDEXES && points <= MAX_CACHED_POINTS)) break;
      if (!entry.index) continue; // still building
      this.indexes.delete(key);
      points -= entry.index.total;
    }
  }

  /** For the benchmark and diagnostics. */
  cachedIndexes(): number {
    return this.indexes.size;
  }

  // ---- region measures ------------------------------------------------------------------------------------

  /** Per region: sites the person may read that match the filters, and how many are union and non-union. */
  async regionMeasures(user: AuthUser, filters: MapFilters): Promise<Map<number, RegionMeasure>> {
    const generation = await this.currentGeneration();
    const hidden = await this.hiddenFields(user, 'sites');
    const key = `${await this.scopeOf(user, 'sites')}|${await this.scopeOf(user, 'contractors')}|hidden:${[...hidden].sort().join(',')}|${canonicalFilters(filters)}`;
    const cached = this.measures.get(key);
    if (cached && cached.generation === generation && Date.now() - cached.at < INDEX_TTL_MS) return cached.value;
    const value = (async () => {
      const result = new Map<number, RegionMeasure>();
      if (!(await this.drawable(user, 'sites'))) return result;
      const def = sitesDefinition(this.ctx);
      const fields = await this.siteFields(user);
      let query = (await this.ctx.records.visibleRows(this.ctx.db, def, user)).innerJoin(
        'site_regions as sr',
        'sr.site_id',
        't.id',
      );
      for (const condition of await siteFilterConditions(
        filters,
        this.ctx.records.filterScope(user, fields),
        await this.readableContractor(user),
      ))
        query = query.where(condition);
      // A role that hides the site type learns no union share from it (no known type: the share is unknown).
      const ofType = (types: string[]) =>
        hidden.has('type') ? sql<number>`0` : sql<number>`count(*) filter (where t.type in (${sql.join(types)}))`;
      const rows = await query
        .select([
          'sr.region_id as region_id',
          sql<number>`count(*)`.as('sites'),
          ofType(UNION_TYPES).as('union_sites'),
          ofType(NON_UNION_TYPES).as('non_union_sites'),
        ])
        .groupBy('sr.region_id')
        .execute();
      for (const row of rows as any[])
        result.set(Number(row.region_id), {
          sites: Number(row.sites),
          union_sites: Number(row.union_sites),
          non_union_sites: Number(row.non_union_sites),
        });
      return result;
    })();
    this.measures.set(key, { generation, at: Date.now(), value });
    value.catch(() => this.measures.get(key)?.value === value && this.measures.delete(key));
    if (this.measures.size > 20) this.measures.delete(this.measures.keys().next().value!);
    return value;
  }
}

const services = new WeakMap<AppContext, MapService>();

/** The one MapService of an app (tests and the benchmark use it to invalidate or inspect). */
export function mapServiceFor(ctx: AppContext): MapService {
  let service = services.get(ctx);
  if (!service) {
    service = new MapService(ctx);
    services.set(ctx, service);
  }
  return service;
}
