/**
 * What a realtime event means for the open screens (SPEC section 4, "Realtime events"). Pure: RealtimeConnector
 * applies the plan to react-query, the main data and the session.
 */
import { resourceForType } from '../resources/names';

export const EVENT_NAMESPACE = 'App.Events';

export type RealtimeEventName =
  | 'ModelCreated'
  | 'ModelUpdated'
  | 'ModelSaved'
  | 'ModelDestroyed'
  | 'ImportProcessing'
  | 'ImportComplete'
  | 'BulkEditProcessing'
  | 'BulkEditComplete'
  | 'SystemUpdated'
  | 'AssistantMessage'
  | 'AssistantRefresh';

export const MODEL_EVENTS: ReadonlySet<string> = new Set([
  'ModelCreated',
  'ModelUpdated',
  'ModelSaved',
  'ModelDestroyed',
]);

export interface ModelEventPayload {
  type?: string;
  id?: number | string;
  data?: Record<string, unknown> | null;
}

export interface RealtimePlan {
  /** react-admin resources whose cached queries (lists, show pages, references) are refetched. */
  invalidate: string[];
  reload: Array<'features' | 'statistics' | 'schemas'>;
  /** The person's own user or role changed: refresh profile and permissions. */
  refreshSession: boolean;
  systemUpdated: boolean;
}

/**
 * 'App\\Events\\ModelSaved', 'App.Events.ModelSaved', '.ModelSaved', 'ModelSaved' -> 'ModelSaved'.
 * (laravel-echo's listenToAll strips the namespace and prefixes other names with a dot.)
 */
export function normaliseEventName(name: string): string {
  const trimmed = name.replace(/^[.\\]+/, '');
  const parts = trimmed.split(/[.\\]/);
  return parts[parts.length - 1] ?? trimmed;
}

export interface Me {
  id: number;
  role_id: number | null;
  realtime_key?: string;
}

export function planRealtimeEvent(eventName: string, payload: unknown, me: Me | null): RealtimePlan {
  const name = normaliseEventName(eventName);
  const plan: RealtimePlan = { invalidate: [], reload: [], refreshSession: false, systemUpdated: false };
  const body = (payload && typeof payload === 'object' ? payload : {}) as ModelEventPayload;

  if (MODEL_EVENTS.has(name) && typeof body.type === 'string' && body.type) {
    const type = body.type;
    plan.invalidate.push(resourceForType(type));
    if (type === 'feature') plan.reload.push('features');
    if (type === 'schema' || type === 'schema-field') {
      plan.reload.push('schemas');
      if (type === 'schema-field') plan.invalidate.push(resourceForType('schema'));
    }
    if (type === 'note' || type === 'notification' || type === 'task') plan.reload.push('statistics');
    if (me) {
      const sameId = body.id !== undefined && String(body.id) === String(me.id);
      const sameKey = Boolean(me.realtime_key) && body.data?.realtime_key === me.realtime_key;
      if (type === 'user' && (sameId || sameKey)) plan.refreshSession = true;
      if (type === 'role' && me.role_id != null && body.id !== undefined && String(body.id) === String(me.role_id))
        plan.refreshSession = true;
    }
    return plan;
  }

  switch (name) {
    case 'ImportProcessing':
    case 'ImportComplete':
      plan.invalidate.push(resourceForType('import'));
      break;
    case 'AssistantMessage':
      // The pieces of an answer being written are shown as they come (assistant/useAssistantEvents.ts): no refetch for each.
      if ((body as { status?: unknown }).status === 'streaming') break;
      plan.invalidate.push(resourceForType('assistant-thread'), resourceForType('assistant-message'));
      break;
    case 'AssistantRefresh':
      plan.invalidate.push(resourceForType('assistant-thread'), resourceForType('assistant-message'));
      break;
    case 'SystemUpdated':
      plan.systemUpdated = true;
      break;
    default:
      break;
  }
  return plan;
}

/** The react-query keys of a resource's reads: react-admin's [resource, method, params], and a kanban's board. */
export const READ_METHODS = [
  'getList',
  'getOne',
  'getMany',
  'getManyReference',
  'getInfiniteList',
  'getBoard',
] as const;

export function isResourceReadKey(queryKey: readonly unknown[], resource: string): boolean {
  return queryKey[0] === resource && (READ_METHODS as readonly string[]).includes(String(queryKey[1]));
}

/** Channel names (without the `private-` prefix laravel-echo adds). */
export function channelsFor(me: Me): { user: string; role: string | null; system: string } {
  return {
    user: `App.Models.User.${me.id}`,
    role: me.role_id != null ? `App.Models.Role.${me.role_id}` : null,
    system: 'system',
  };
}
