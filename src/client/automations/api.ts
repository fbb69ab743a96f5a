/** The automations and webhooks API, as the screens call it (docs/api.md "Automations and webhooks"). */
import { useMemo } from 'react';
import type { ActionParams } from '../providers/dataProvider';
import { useAppDataProvider } from '../records/hooks';
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

/** The automation and webhook calls, through the app's data provider. */
export function useAutomationsApi() {
  const dp = useAppDataProvider();
  return useMemo(() => {
    const act = async <T>(resource: string, params: ActionParams) => (await dp.action(resource, params)).data as T;
    return {
      list: async () => (await dp.getList<Automation>('automations', PAGE)).data,
      show: async (id: number) => (await dp.getOne<Automation>('automations', { id })).data,
      create: async (body: Partial<Automation>) => (await dp.create<Automation>('automations', { data: body })).data,
      save: (id: number, body: Partial<Automation>) =>
        act<Automation>('automations', { id, action: '', method: 'PATCH', data: body }),
      remove: (id: number) => dp.delete('automations', { id }),
      setEnabled: (id: number, enabled: boolean) =>
        act<Automation>('automations', { id, action: enabled ? 'resume' : 'pause' }),
      runs: (id: number) => act<Run[]>('automations', { id, action: 'runs', method: 'GET', query: { per_page: '50' } }),
      retry: (id: number, run: number) => act<unknown>('automations', { id, action: `runs/${run}/retry` }),
      test: (id: number, recordId: number | null) =>
        act<{ conditions_met: boolean; steps: RunStep[] }>('automations', {
          id,
          action: 'test',
          data: { record_id: recordId },
        }),
    };
  }, [dp]);
}

/** The webhook calls, through the app's data provider. */
export function useWebhooksApi() {
  const dp = useAppDataProvider();
  return useMemo(() => {
    const act = async <T>(params: ActionParams) => (await dp.action('webhooks', params)).data as T;
    return {
      list: async () => (await dp.getList<Webhook>('webhooks', PAGE)).data,
      create: async (body: Partial<Webhook>) => (await dp.create<Webhook>('webhooks', { data: body })).data,
      remove: (id: number) => dp.delete('webhooks', { id }),
      resume: (id: number) => act<Webhook>({ id, action: 'resume' }),
      deliveries: (id: number) =>
        act<Delivery[]>({ id, action: 'deliveries', method: 'GET', query: { per_page: '20' } }),
    };
  }, [dp]);
}

const PAGE = { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'DESC' as const }, filter: {} };
