/**
 * The sites a person may work on with no connection: the sites the server lets them read (their turf when their role
 * has `site:read:turf`), up to SITE_LIMIT by name, kept in IndexedDB under their user id and refreshed while online.
 * The offline sites page lists them, and a site page or visit form opened offline finds its site here.
 */
import type { HttpClient } from '../http/client';
import type { OfflineDatabase } from './database';

export const SITE_LIMIT = 1_000;
/** How old the kept list may get before it is fetched again (while online). */
const REFRESH_AFTER_MS = 10 * 60_000;

export class SiteCache {
  constructor(private readonly db: () => Promise<OfflineDatabase>) {}

  async read(userId: number) {
    return (await (await this.db()).get('sites', userId)) ?? null;
  }

  async find(userId: number, id: number | string) {
    const kept = await this.read(userId);
    return kept?.sites.find((site) => String(site.id) === String(id)) ?? null;
  }

  /** Fetches the person's sites when the kept list is missing or old (or `force`); failures keep the old list. */
  async refresh(http: HttpClient, userId: number, force = false): Promise<void> {
    const kept = await this.read(userId);
    if (!force && kept && Date.now() - kept.savedAt < REFRESH_AFTER_MS) return;
    const response = await http.get<{ data: Record<string, unknown>[] }>('/api/sites', {
      query: { per_page: SITE_LIMIT, page: 1, sort: 'name', order: 'asc' },
      refreshSessionOnFailure: false,
    });
    await (await this.db()).put('sites', { userId, savedAt: Date.now(), sites: response.data.data ?? [] });
  }

  async forget(userId: number): Promise<void> {
    await (await this.db()).delete('sites', userId);
  }
}
