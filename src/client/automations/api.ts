/** The automations and webhooks API, as the screens call it (docs/api.md "Automations and webhooks"). */
import { http } from '../app/services';
import type { Action, Condition, Trigger } from './words';

export interface Automation {
  id: number;
  name: string;
  description: string | null;
  record_type: string | null;
  trigger: Trigger;
  conditions: { all?: Condition[]; any?: Condition[] } | null;
  actions: Action[];
  enabled: boolean;
  last_status?: string | null;
  last_run_at?: string | null;
  secret?: string;
}

export interface RunStep {
  path: string;
  kind: string;
  outcome: string;
  at: string;
  detail?: unknown;
  error?: string;
}

export interface Run {
  id: number;
  status: string;
  trigger: { kind: string; record_id?: number | null };
  steps: RunStep[];
  error: string | null;
  created_at: string;
}

export interface Webhook {
  id: number;
  name: string;
  url: string;
  record_type: string;
  events: string[];
  failures: number;
  paused_at: string | null;
  secret?: string;
}

export interface Delivery {
  id: number;
  event: string;
  status: string;
  attempts: number;
  response_status: number | null;
  response_ms: number | null;
  error: string | null;
  created_at: string;
}

const data = async <T>(promise: Promise<{ data: { data: T } }>) => (await promise).data.data;

export const automationsApi = {
  list: () => data<Automation[]>(http.get('/api/automations')),
  show: (id: number) => data<Automation>(http.get(`/api/automations/${id}`)),
  create: (body: Partial<Automation>) => data<Automation>(http.post('/api/automations', body)),
  save: (id: number, body: Partial<Automation>) =>
    data<Automation>(http.request('PATCH', `/api/automations/${id}`, { body })),
  remove: (id: number) => http.delete(`/api/automations/${id}`),
  setEnabled: (id: number, enabled: boolean) =>
    data<Automation>(http.post(`/api/automations/${id}/${enabled ? 'resume' : 'pause'}`)),
  runs: (id: number) => data<Run[]>(http.get(`/api/automations/${id}/runs?per_page=50`)),
  retry: (id: number, run: number) => http.post(`/api/automations/${id}/runs/${run}/retry`),
  test: (id: number, recordId: number | null) =>
    data<{ conditions_met: boolean; steps: RunStep[] }>(
      http.post(`/api/automations/${id}/test`, { record_id: recordId }),
    ),
};

export const webhooksApi = {
  list: () => data<Webhook[]>(http.get('/api/webhooks')),
  create: (body: Partial<Webhook>) => data<Webhook>(http.post('/api/webhooks', body)),
  remove: (id: number) => http.delete(`/api/webhooks/${id}`),
  resume: (id: number) => data<Webhook>(http.post(`/api/webhooks/${id}/resume`)),
  deliveries: (id: number) => data<Delivery[]>(http.get(`/api/webhooks/${id}/deliveries?per_page=20`)),
};
