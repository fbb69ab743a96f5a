/** The data provider's assistant methods beyond its threads and messages (docs/assistant.md). */
import type { HttpClient } from '../http/client';

export function assistantMethods(http: HttpClient) {
  return {
    /** Whether the assistant is on and ready, for a record's context or none. */
    async assistantStatus<T>(context: { type: string; id: number } | null) {
      const query = context ? { context_type: context.type, context_id: context.id } : undefined;
      return (await http.get<{ data: T }>('/api/assistant/status', { query })).data.data;
    },

    /** Asks the configured model a short question, to show the administrator whether the settings work. */
    async testAssistantConnection<T>() {
      return (await http.post<{ data: T }>('/api/assistant/test-connection')).data.data;
    },
  };
}

export type AssistantMethods = ReturnType<typeof assistantMethods>;
