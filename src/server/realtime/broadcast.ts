import type { AppContext } from '../app-context.js';
import { type AppEvent, isJobEvent, isNoticeEvent, type RecordAction, type RecordEvent } from '../events/app-events.js';
import { roleChannels, userChannel } from './channels.js';

/** The `App.Events.*` names laravel-echo listens for, by what happened. */
const MODEL_EVENTS: Record<RecordAction, string[]> = {
  created: ['ModelCreated', 'ModelSaved'],
  updated: ['ModelUpdated', 'ModelSaved'],
  restored: ['ModelUpdated', 'ModelSaved'],
  deleted: ['ModelDestroyed'],
  // Many records at once: one "reload this type" signal rather than one event per record.
  imported: ['ModelSaved'],
};

/**
 * Who hears of a record's change: the roles that may read it (its category permission included), or only its owner
 * for a type read by its owner alone (notifications, exports); the type's own extra channels; and for many records
 * at once, also the person who made the change.
 */
async function channelsOf(ctx: AppContext, event: RecordEvent): Promise<string[]> {
  const def = event.resource;
  const owner = def.ownerColumn ? event.record[def.ownerColumn] : null;
  const readers = def.ownerColumn
    ? owner
      ? [userChannel(owner)]
      : []
    : await roleChannels(ctx.db, ctx.records, def, event.record);
  const extra =
    event.id === null ? (event.user ? [userChannel(event.user.id)] : []) : (def.channels?.(event.record) ?? []);
  return [...new Set([...readers, ...extra])];
}

/**
 * Sends the events of the in-process bus to browsers (docs/realtime.md): record changes as `App.Events.Model*` with
 * `{type, id, data}` to the channels of those who may read them; job progress (`ImportProcessing`, `ImportComplete`)
 * to the person's own channel. A finished export is a change of that person's export record: `ModelSaved`. Notices
 * (the assistant's answer as it is written, a new version deployed) go as they are to the person's channel or to
 * `system`.
 * `ctx.realtime` is read on every event, so a test that wraps `publish` sees what goes out.
 */
export function broadcastAppEvents(ctx: AppContext): () => void {
  return ctx.events.on(async (event: AppEvent) => {
    if (isNoticeEvent(event)) {
      const channels = event.userId === null ? ['system'] : [userChannel(event.userId)];
      await ctx.realtime.publish(channels, `App.Events.${event.event}`, event.data);
      return;
    }
    if (isJobEvent(event)) {
      const name = event.event === 'ExportComplete' ? 'ModelSaved' : event.event;
      await ctx.realtime.publish([userChannel(event.userId)], `App.Events.${name}`, {
        type: event.type,
        id: event.id,
        data: event.record,
      });
      return;
    }
    const channels = await channelsOf(ctx, event);
    // A type whose records read differently per person (hooks.presentFor: a visit's head counts) cannot send one
    // record to a whole channel: its browsers are told what changed and read it again with their own permissions.
    const data = event.resource.hooks?.presentFor ? null : event.record;
    const payload = { type: event.type, id: event.id, data };
    for (const name of MODEL_EVENTS[event.event])
      await ctx.realtime.publish(channels, `App.Events.${name}`, payload, { exceptSocketId: event.socketId });
  });
}
