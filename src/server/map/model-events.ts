import type { AppContext } from '../app-context.js';

export interface ModelEvent {
  /** ModelCreated, ModelUpdated, ModelSaved, ModelDestroyed, or ImportComplete (`type: 'import'`). */
  event: string;
  type: string;
  id: number | null;
  data: Record<string, any> | null;
}

type Listener = (event: ModelEvent) => void | Promise<void>;

const hubs = new WeakMap<AppContext, Set<Listener>>();

/**
 * Lets server code react in-process to the model events the record service publishes after each commit
 * (`App.Events.Model*` with `{type, id, data}`). There is no in-process event emitter in the platform, so the
 * first listener wraps `ctx.realtime.publish` (which the record service calls) once: listeners run first and
 * are awaited, then the event goes out to browsers. A browser that hears about a change and asks the map again
 * is therefore answered from fresh data. A listener's failure is logged, never passed to the writer.
 */
export function onModelEvent(ctx: AppContext, listener: Listener, log?: { error: (obj: unknown, msg?: string) => void }): () => void {
  let listeners = hubs.get(ctx);
  if (!listeners) {
    const set = new Set<Listener>();
    listeners = set;
    hubs.set(ctx, set);
    const publish = ctx.realtime.publish.bind(ctx.realtime);
    ctx.realtime.publish = async (channels, event, data, options) => {
      const match = /^App\.Events\.(Model\w+|ImportComplete)$/.exec(event);
      if (match && data && typeof data === 'object' && typeof (data as any).type === 'string') {
        const body = data as { type: string; id?: unknown; data?: unknown };
        const modelEvent: ModelEvent = {
          event: match[1],
          type: body.type,
          id: Number.isInteger(Number(body.id)) ? Number(body.id) : null,
          data: body.data && typeof body.data === 'object' ? (body.data as Record<string, any>) : null,
        };
        for (const fn of set) {
          try {
            await fn(modelEvent);
          } catch (error) {
            log?.error({ err: error }, 'A map listener failed on a model event');
          }
        }
      }
      return publish(channels, event, data, options);
    };
  }
  listeners.add(listener);
  return () => listeners!.delete(listener);
}
