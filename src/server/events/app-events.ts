import type { AuthUser } from '../auth/auth-user.js';
import type { ResourceDefinition } from '../records/resource.js';

/** What a committed write did to records (Directus's `emitAction` events: `items.create`, `items.update`, ...). */
export type RecordAction = 'created' | 'updated' | 'deleted' | 'restored' | 'imported';

export interface RecordEvent {
  event: RecordAction;
  /** The record type (`site`, `import`, a type created in the app). */
  type: string;
  /**
   * null: many records of the type changed at once (an import finished or was undone, a field of the type changed its
   * values); `record` says which import or field.
   */
  id: number | null;
  /** The record as the API presents it. */
  record: Record<string, any>;
  /** Who made the change; null when the server acted on its own (a load on demand, a job without a person). */
  user: AuthUser | null;
  /** The resource of the record: who may read it (permission, category, owner column) and its extra channels. */
  resource: ResourceDefinition;
  /** The X-Socket-Id of the browser that made the change: it already knows, so it is not told. */
  socketId?: string;
  /** An update's changed values, `{field: [before, after]}` (as its revision has them). */
  changes?: Record<string, [unknown, unknown]>;
  /** The automation run that made the write (automations/): how deep a chain of automations it is, and which ones. */
  cause?: WriteCause;
}

/** An automation's run behind a write: `depth` 0 for a run a person's write set off; `chain`: the automations so far. */
export interface WriteCause {
  runId: number;
  depth: number;
  chain: number[];
}

/** Progress of a background job, for the person who started it. */
export type JobEventName =
  | 'ImportProcessing'
  | 'ImportComplete'
  | 'ExportComplete'
  | 'BulkEditProcessing'
  | 'BulkEditComplete';

export interface JobEvent {
  event: JobEventName;
  type: 'import' | 'export' | 'bulk-edit';
  id: number;
  /** The job's row as the API presents it (status, counts, progress, download link). */
  record: Record<string, any>;
  /** The person the job runs for. */
  userId: number;
}

/**
 * A notice that is no change of records, for one person's browsers or for every browser: the assistant's answer as
 * it is written (`AssistantMessage`), its conversation to read again (`AssistantRefresh`), a new version deployed
 * (`SystemUpdated`).
 */
export interface NoticeEvent {
  event: 'AssistantMessage' | 'AssistantRefresh' | 'SystemUpdated';
  type: 'assistant' | 'system';
  id: null;
  /** Whose private channel hears it; null: every browser (the `system` channel). */
  userId: number | null;
  /** What the browsers are sent. */
  data: unknown;
}

export type AppEvent = RecordEvent | JobEvent | NoticeEvent;
export type AppEventListener = (event: AppEvent) => void | Promise<void>;

const RECORD_ACTIONS = new Set<string>(['created', 'updated', 'deleted', 'restored', 'imported']);
const JOB_EVENTS = new Set<string>([
  'ImportProcessing',
  'ImportComplete',
  'ExportComplete',
  'BulkEditProcessing',
  'BulkEditComplete',
]);

export const isJobEvent = (event: AppEvent): event is JobEvent => JOB_EVENTS.has(event.event);
export const isRecordEvent = (event: AppEvent): event is RecordEvent => RECORD_ACTIONS.has(event.event);
export const isNoticeEvent = (event: AppEvent): event is NoticeEvent => !isJobEvent(event) && !isRecordEvent(event);

/**
 * The server's one in-process event bus. The data service (`RecordService`) and the job services emit after their
 * transaction commits, never for a write that rolled back; the assistant and the deploy notice emit their notices;
 * listeners subscribe with `on`: the realtime broadcaster (realtime/broadcast.ts), the map's marker indexes, and
 * whatever a feature adds in its plugin.
 *
 * `emit` queues the event and returns: the listeners run after the writer's request has its answer (from the next
 * turn of the event loop), never inside it, so a slow listener (the broadcaster's queries and publishing) does not
 * hold the write's response. Events reach the listeners in the order they were emitted, each event every listener one
 * after another in the order they subscribed. The realtime broadcaster subscribes last (app.ts, after every feature
 * plugin), so every in-process cache has caught up before a browser hears of the change and asks the server again: it
 * is answered from fresh data. A listener that throws is logged and the next one still runs; the writer never sees
 * the failure (its write has committed). `idle()` resolves once every event emitted so far has reached every
 * listener (the app waits for it before it closes; tests wait for it before they look at what listeners did).
 */
export class AppEvents {
  private readonly listeners: AppEventListener[] = [];
  private readonly queue: AppEvent[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly logError: (error: unknown, message: string) => void = (error, message) =>
      console.error(message, error),
  ) {}

  /** Subscribes; returns the function that unsubscribes. */
  on(listener: AppEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }

  /** Queues the event for the listeners (they run after the caller's turn of the event loop). */
  emit(event: AppEvent): void {
    this.queue.push(event);
    this.running ??= this.deliver();
  }

  /** Resolves once every event emitted so far (and any they led to) has reached every listener. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async deliver() {
    // The writer's answer goes out first.
    await new Promise((resolve) => setImmediate(resolve));
    for (let event = this.queue.shift(); event; event = this.queue.shift()) {
      for (const listener of [...this.listeners]) {
        try {
          await listener(event);
        } catch (error) {
          this.logError(
            error,
            `A listener failed on the ${event.event} event of ${event.type} ${event.id ?? ''}`.trimEnd(),
          );
        }
      }
    }
    this.running = null;
  }
}
