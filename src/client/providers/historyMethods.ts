/** The data provider's history methods: a record's revisions and the values its archived fields kept. */
import type { HttpClient } from '../http/client';
import type { Query } from '../http/query';

interface Page<T> {
  data: T[];
  meta: { total: number; current_page: number; last_page: number };
}

export function historyMethods(http: HttpClient) {
  return {
    /** GET /api/revisions: `type` and `revisionable_id` for one record's, or the revisions screen's filters. */
    async revisions<T>(query: Query, signal?: AbortSignal) {
      return (await http.get<Page<T>>('/api/revisions', { query, signal })).data;
    },

    /** The values of a record's archived fields (GET /api/archived-values). */
    async archivedValues<T>(type: string, recordId: number | string, signal?: AbortSignal) {
      const query = { type, record_id: recordId };
      return (await http.get<{ data: T[] }>('/api/archived-values', { query, signal })).data.data;
    },

    /** Puts an archived value back on its record; answers the server's message. */
    async restoreArchivedValue(id: number | string) {
      const path = `/api/archived-values/${encodeURIComponent(String(id))}/restore`;
      return (await http.post<{ message: string }>(path, {})).data.message;
    },
  };
}

export type HistoryMethods = ReturnType<typeof historyMethods>;
