/** The data provider's read of the figures screens: the dashboard, the activity feed and the reports. */
import type { HttpClient } from '../http/client';
import type { Query } from '../http/query';

/** Every figures endpoint the client reads, under /api/. */
export type InsightPath =
  | 'actions'
  | 'dashboard/data'
  | 'dashboard/statistics'
  | 'reports/classifications'
  | 'reports/market-share'
  | 'reports/market-share/sites'
  | 'reports/task-performance'
  | 'reports/user-performance'
  | 'turf';

export function insightMethods(http: HttpClient) {
  return {
    /** One figures endpoint with its query; the answer as it comes (`{data, meta, ...}`). */
    async insight<T>(path: InsightPath, query: Query = {}, signal?: AbortSignal) {
      return (await http.get<T>(`/api/${path}`, { query, signal })).data;
    },
  };
}

export type InsightMethods = ReturnType<typeof insightMethods>;
