/**
 * Automations in plain words (docs/automations.md): what the administrator's screens say a trigger, an action, a
 * condition or a run's status is. Pure functions of the API's shapes.
 */
export interface Trigger {
  kind: 'created' | 'updated' | 'deleted' | 'field_changed' | 'date_reached' | 'schedule' | 'webhook';
  field?: string;
  from?: unknown;
  to?: unknown;
  days?: number | string[];
  at?: string;
}

export interface Condition {
  field: string;
  op: string;
  value?: unknown;
}

export type Action = { kind: string } & Record<string, unknown>;

export const TRIGGER_KINDS: Array<[Trigger['kind'], string]> = [
  ['created', 'a record is created'],
  ['updated', 'a record is changed'],
  ['deleted', 'a record is deleted'],
  ['field_changed', 'a field changes'],
  ['date_reached', 'a date is reached'],
  ['schedule', 'on a schedule'],
  ['webhook', 'a message arrives at its web address'],
];

export const ACTION_KINDS: Array<[string, string]> = [
  ['set_fields', 'Set fields on the record'],
  ['create_record', 'Create a record'],
  ['notify', 'Notify people in the app'],
  ['email', 'Send an email'],
  ['webhook', 'Call a web address'],
];

export const OPERATORS: Array<[string, string]> = [
  ['eq', 'is'],
  ['neq', 'is not'],
  ['contains', 'contains'],
  ['gt', 'is more than'],
  ['lt', 'is less than'],
  ['empty', 'is empty'],
  ['not_empty', 'is not empty'],
];

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_NAMES: Record<string, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const quoted = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

/** "When a Job Site is created", "Every Monday at 07:00"... `typeName`: the record type's singular name. */
export function triggerInWords(trigger: Trigger, typeName = 'record'): string {
  switch (trigger.kind) {
    case 'created':
      return `When a ${typeName} is created`;
    case 'updated':
      return `When a ${typeName} is changed`;
    case 'deleted':
      return `When a ${typeName} is deleted`;
    case 'field_changed': {
      const from = trigger.from === undefined ? '' : ` from ${quoted(trigger.from)}`;
      const to = trigger.to === undefined ? '' : ` to ${quoted(trigger.to)}`;
      return `When a ${typeName}'s ${trigger.field} changes${from}${to}`;
    }
    case 'date_reached': {
      const days = Number(trigger.days ?? 0);
      if (days === 0) return `On a ${typeName}'s ${trigger.field}`;
      return `${Math.abs(days)} day${Math.abs(days) === 1 ? '' : 's'} ${days < 0 ? 'before' : 'after'} a ${typeName}'s ${trigger.field}`;
    }
    case 'schedule': {
      const days = Array.isArray(trigger.days) && trigger.days.length ? trigger.days : null;
      return `${days ? `Every ${days.map((day) => DAY_NAMES[day] ?? day).join(', ')}` : 'Every day'} at ${trigger.at}`;
    }
    case 'webhook':
      return 'When a message arrives at its web address';
  }
}

/** "Set representative to "Checked"", "Email steward@example.org: "Site deleted""... */
export function actionInWords(action: Action): string {
  const values = (action.values ?? {}) as Record<string, unknown>;
  const pairs = Object.entries(values)
    .map(([field, value]) => `${field} to ${quoted(value)}`)
    .join(', ');
  switch (action.kind) {
    case 'set_fields':
      return `Set ${pairs || 'nothing'}`;
    case 'create_record':
      return `Create a ${String(action.record_type)} with ${pairs || 'no values'}`;
    case 'notify': {
      const who = [
        ...(Array.isArray(action.people) && action.people.length ? [`people ${action.people.join(', ')}`] : []),
        ...(action.role ? [`everyone with the ${String(action.role)} role`] : []),
        ...(action.record_owner ? ["the record's owner"] : []),
      ];
      return `Notify ${who.join(' and ') || 'nobody'}: ${quoted(action.title)}`;
    }
    case 'email':
      return `Email ${(action.to as string[] | undefined)?.join(', ') ?? ''}: ${quoted(action.subject)}`;
    case 'webhook':
      return `Call ${String(action.url)}`;
    case 'branch': {
      const yes = ((action.yes as Action[] | undefined) ?? []).map(actionInWords).join('; ');
      const no = ((action.no as Action[] | undefined) ?? []).map(actionInWords).join('; ');
      return `If the record meets its test: ${yes || 'nothing'}${no ? `; otherwise: ${no}` : ''}`;
    }
    default:
      return action.kind;
  }
}

/** "type is "union"". */
export function conditionInWords(condition: Condition): string {
  const op = OPERATORS.find(([name]) => name === condition.op)?.[1] ?? condition.op;
  return condition.value === undefined
    ? `${condition.field} ${op}`
    : `${condition.field} ${op} ${quoted(condition.value)}`;
}

export const RUN_STATUS_WORDS: Record<string, string> = {
  queued: 'Waiting to run',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
  stopped: 'Stopped',
};

/** "key = value" lines as values (the editor's way of writing `values`), and back. */
export function valuesFromLines(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    values[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return values;
}

export const linesFromValues = (values: unknown) =>
  Object.entries((values ?? {}) as Record<string, unknown>)
    .map(([key, value]) => `${key} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
