/** The data provider's methods about people: who may be assigned work, a person's timeline and the assessments. */
import type { HttpClient } from '../http/client';

const enc = (value: string | number) => encodeURIComponent(String(value));

export function peopleMethods(http: HttpClient) {
  return {
    /** People work may be assigned to, by name (GET /api/assignees): readable by anyone who adds tasks. */
    async assignees(q: string, signal?: AbortSignal) {
      const query = q ? { q } : {};
      return (await http.get<{ data: Array<{ id: number; name: string }> }>('/api/assignees', { query, signal })).data
        .data;
    },

    /** A contact's, recruit's or member's conversations, tasks and notes, newest first. */
    async personTimeline<T>(person: { type: string; id: number | string }, signal?: AbortSignal) {
      const path = `/api/${enc(`${person.type}s`)}/${enc(person.id)}/timeline`;
      return (await http.get<{ data: T[] }>(path, { signal })).data.data;
    },

    /** How the people of a campaign or a site are assessed (GET /api/assessments/summary). */
    async assessmentSummary<T>(scope: { campaign_id: number } | { site_id: number }, signal?: AbortSignal) {
      return (await http.get<{ data: T }>('/api/assessments/summary', { query: scope, signal })).data.data;
    },
  };
}

export type PeopleMethods = ReturnType<typeof peopleMethods>;
