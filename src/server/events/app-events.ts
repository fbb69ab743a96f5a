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

export type AppEvent = RecordEvent | JobEvent;
export type AppEventListener = (event: AppEvent) => void | Promise<void>;

const JOB_EVENTS = new Set<string>([
  'ImportProcessing',
  'ImportComplete',
  'ExportComplete',
  'BulkEditProcessing',
  'BulkEditComplete',
]);

export const isJobEvent = (event: AppEvent): event is JobEvent => JOB_EVENTS.has(event.event);
export const isRecordEvent = (event: AppEvent): event is RecordEvent => !JOB_EVENTS.has(event.event);

/**
 * The server's one in-process event bus. The data service (`RecordService`) and the job services emit after their
 * transaction commits, never for a write that rolled back; listeners subscribe with `on`: the realtime broadcaster
 * (realtime/broadcast.ts), the map's marker indexes, and whatever a feature adds in its plugin.
 *
 * Listeners run one after another in the order they subscribed, and `emit` resolves when all have finished. The
 * realtime broadcaster subscribes last (app.ts, after every feature plugin), so every in-process cache has caught up
 * before a browser hears of the change and asks the server again: it is answered from fresh data. A listener that
 * throws is logged and the next one still runs; the writer never sees the failure (its write has committed).
 */
export class AppEvents {
  private readonly listeners: AppEventListener[] = [];

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

  async emit(event: AppEvent): Promise<void> {
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
}
