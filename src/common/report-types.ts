/**
 * The answers of the report endpoints (GET /api/reports/...), as the server builds them and the report screens read
 * them. docs/reports.md says what each figure counts.
 */

/** A figure and the list it counts: `GET /api/{resource}?filter={...}` answers `meta.total` equal to the figure. */
export interface FigureLink {
  resource: string;
  filter: Record<string, unknown>;
}

// ---- market share (GET /api/reports/market-share) ------------------------------------------------------------

export type Labour = 'union' | 'non-union' | 'unknown';
export type MarketShareMeasure = 'sites' | 'value' | 'hours';
export type LabourFigures = Record<MarketShareMeasure, number>;

/** The workers counted at the sites' latest visits (head counts): union, non-union, not noted, and the union share. */
export interface WorkerFigures {
  union: number;
  non_union: number;
  unknown: number;
  total: number;
  share: number | null;
}

export interface MarketShareRow {
  key: string | null;
  label: string;
  union: LabourFigures;
  non_union: LabourFigures;
  unknown: LabourFigures;
  total: LabourFigures;
  /** Union work as a percentage of union plus non-union work (unknown left out); null when there is none. */
  share: Record<MarketShareMeasure, number | null>;
  /** The measure by workers counted (head counts of the sites' latest visits). */
  workers: WorkerFigures;
  /** The query of the drill-down (GET /api/reports/market-share/sites) of the row's group; not on the totals. */
  link?: Record<string, string>;
}

export interface MarketShareAnswer {
  data: MarketShareRow[];
  totals: MarketShareRow;
  meta: {
    group_by: string;
    interval: string;
    date_field: string;
    labours: readonly Labour[];
    definition: string;
    workers_definition: string /** Under the table when a site can count in several groups. */;
    group_note: string | null;
  };
}

// ---- classifications (GET /api/reports/classifications) ------------------------------------------------------

export interface ClassificationRow {
  key: number | null;
  label: string;
  classification_type: string | null;
  members: number | null;
  stewards: number | null;
  contacts: number | null;
  links: Record<'members' | 'stewards' | 'contacts', FigureLink | null>;
}

// ---- task performance (GET /api/reports/task-performance) ----------------------------------------------------

export type TaskFigure = 'calls' | 'meetings' | 'visits' | 'done' | 'due' | 'overdue';

export interface TaskPerformanceRow {
  /** The person's or team's id, or the choice value when grouped by a field. */
  key: number | string | null;
  label: string;
  period: string | null;
  calls: number;
  meetings: number;
  visits: number;
  done: number;
  due: number;
  due_done: number;
  overdue: number;
  /** Of the tasks due in the period, the share completed (any time), in percent; null when none were due. */
  completion_rate: number | null;
  /** Null when grouped by a field of sites or contractors (the tasks list cannot filter by the record's field). */
  links: Record<TaskFigure, FigureLink | null>;
}

// ---- user performance (GET /api/reports/user-performance) ----------------------------------------------------

export const GOAL_KEYS = ['calls', 'meetings', 'visits', 'recruits'] as const;
export type GoalKey = (typeof GOAL_KEYS)[number];
export type Goals = Record<GoalKey, number | null>;
/** The figures' names, wherever they are shown (the dashboard, the user-performance report). */
export const GOAL_LABELS: Record<GoalKey, string> = {
  calls: 'Calls',
  meetings: 'Meetings',
  visits: 'Visits',
  recruits: 'Recruits signed',
};

export interface UserPerformanceRow {
  user_id: number;
  name: string;
  team_id: number | null;
  goals: Goals & { source: string };
  /** The month's own goals as set (for the goals screen), without the default filled in. */
  month_goals: Partial<Goals> | null;
  default_goals: Partial<Goals> | null;
  done: Goals;
  /** Done as a percentage of the goal; null without a goal (or when the figure may not be read). */
  progress: Goals;
  links: Record<GoalKey, FigureLink | null>;
  /** What each figure adds up (tasks done, visits logged...): each list and its count. */
  parts: Record<GoalKey, Array<{ key: string; label: string; value: number; link: FigureLink }>>;
}

/** What an entry of the activity feed (GET /api/actions) says happened. */
export type FeedKind =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'restored'
  | 'imported'
  | 'note-added'
  | 'task-completed'
  | 'import-finished';

/** What a bulk change in the activity feed wrote, by record type and action (`group.parts`). */
export interface FeedBatchPart {
  type: string;
  type_name: string;
  type_plural: string;
  resource: string | null;
  action: string;
  count: number;
}
