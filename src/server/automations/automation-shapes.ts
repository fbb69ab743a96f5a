import { z } from 'zod';

/**
 * What an automation is (docs/automations.md), as the API takes it: a trigger, conditions in the view filter
 * structure (server/filters/filter-tree.ts, checked there), and actions in order, a branch holding actions of its own.
 */
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof DAYS)[number];

const field = z.string().trim().min(1).max(100);

export const triggerShape = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('created') }),
  z.object({ kind: z.literal('updated') }),
  z.object({ kind: z.literal('deleted') }),
  /** A field's value changes; `from` / `to`: only from or to that value. */
  z.object({ kind: z.literal('field_changed'), field, from: z.unknown().optional(), to: z.unknown().optional() }),
  /** A date field reached: `days` after the date (negative: before it), checked each minute, each record once per date. */
  z.object({ kind: z.literal('date_reached'), field, days: z.number().int().min(-3_650).max(3_650).default(0) }),
  /** Every day (or the weekdays named) at `at`, in the organization's time zone (TIME_ZONE). */
  z.object({
    kind: z.literal('schedule'),
    at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 07:00.'),
    days: z.array(z.enum(DAYS)).max(7).optional(),
  }),
  /** A message posted to the automation's own address, signed with its secret. */
  z.object({ kind: z.literal('webhook') }),
]);
export type Trigger = z.infer<typeof triggerShape>;
export const RECORD_TRIGGERS = new Set(['created', 'updated', 'deleted', 'field_changed', 'date_reached']);

const values = z.record(z.string().min(1).max(100), z.unknown());
const text = (max: number) => z.string().trim().min(1).max(max);

const plainActions = [
  /** Sets fields of the record that set the automation off. */
  z.object({ kind: z.literal('set_fields'), values }),
  /** Makes a record of `record_type`; values may hold `{{site.name}}`-style placeholders. */
  z.object({ kind: z.literal('create_record'), record_type: text(100), values }),
  /** Tells people in the app: by id (or placeholder), everyone of a role, and/or the record's owner. */
  z.object({
    kind: z.literal('notify'),
    people: z
      .array(z.union([z.number().int().min(1), z.string().max(200)]))
      .max(100)
      .optional(),
    role: z.string().max(100).optional(),
    record_owner: z.boolean().optional(),
    title: text(300),
    body: z.string().max(5_000).optional(),
  }),
  /** An email (SMTP_URL; without it, written to the log). */
  z.object({
    kind: z.literal('email'),
    to: z.array(z.string().max(300)).min(1).max(50),
    subject: text(300),
    text: z.string().max(20_000),
  }),
  /** A signed message (Standard Webhooks, the automation's secret) to `url`. */
  z.object({ kind: z.literal('webhook'), url: text(2_000) }),
] as const;

export type PlainAction = z.infer<(typeof plainActions)[number]>;
export type BranchAction = { kind: 'branch'; if: unknown; yes: Action[]; no?: Action[] };
export type Action = PlainAction | BranchAction;

const MAX_ACTIONS = 20;

export const actionShape: z.ZodType<Action> = z
  .lazy(() =>
    z.discriminatedUnion('kind', [
      ...plainActions,
      /** The actions of `yes` when the record meets `if` (a filter), else those of `no`. */
      z.object({
        kind: z.literal('branch'),
        if: z.unknown(),
        yes: z.array(actionShape).max(MAX_ACTIONS),
        no: z.array(actionShape).max(MAX_ACTIONS).optional(),
      }),
    ]),
  )
  .meta({ id: 'AutomationAction' });

export const automationBody = z.object({
  name: text(200),
  description: z.string().max(2_000).nullable().optional(),
  /** The records it watches (any trigger but schedule and webhook); also what `set_fields` writes. */
  record_type: z.string().trim().max(100).nullable().optional(),
  trigger: triggerShape,
  conditions: z.unknown().optional(),
  actions: z.array(actionShape).min(1).max(MAX_ACTIONS),
  enabled: z.boolean().optional(),
});
export type AutomationBody = z.infer<typeof automationBody>;
export const automationPatch = automationBody.partial();

/** Cron days of week (croner: 0 is Sunday). */
export const CRON_DAYS: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** Every action with where it sits: `0`, `2.yes.1` (the run log names steps by this path). */
export function* actionsWithPaths(actions: readonly Action[], prefix = ''): Generator<[string, Action]> {
  for (const [index, action] of actions.entries()) {
    const path = `${prefix}${index}`;
    yield [path, action];
    if (action.kind === 'branch') {
      yield* actionsWithPaths(action.yes, `${path}.yes.`);
      if (action.no) yield* actionsWithPaths(action.no, `${path}.no.`);
    }
  }
}
