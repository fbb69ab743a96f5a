import { readersOf } from '../access/fan-out.js';
import { KeptRoles } from '../access/kept-roles.js';
import { masked } from '../access/policy.js';
import type { AppContext } from '../app-context.js';
import { type AppEvent, isJobEvent, isNoticeEvent, type RecordAction, type RecordEvent } from '../events/app-events.js';
import { roleChannel, userChannel } from './channels.js';

/** The `App.Events.*` names laravel-echo listens for, by what happened. */
const MODEL_EVENTS: Record<RecordAction, string[]> = {
  created: ['ModelCreated', 'ModelSaved'],
  updated: ['ModelUpdated', 'ModelSaved'],
  restored: ['ModelUpdated', 'ModelSaved'],
  deleted: ['ModelDestroyed'],
  // Many records at once: one "reload this type" signal rather than one event per record.
  imported: ['ModelSaved'],
};

/** One payload's audience: channels whose readers may read the same fields of the record. */
interface Audience {
  channels: string[];
  hidden: ReadonlySet<string>;
}

/**
 * Who hears of a record's change, with what of it: the roles that may read it (the access policy decides, every role
 * at once: access/fan-out.ts), each on its channel, or for a role whose rule depends on the person, those of its
 * members who may, on their own channels; each without the fields their role hides. A type read by its owner alone
 * (notifications, exports) goes to its owner. The type's own extra channels, and for many records at once the person
 * who made the change, hear it as the record is.
 */
async function audiencesOf(ctx: AppContext, roles: KeptRoles, event: RecordEvent): Promise<Audience[]> {
  const def = event.resource;
  const extra =
    event.id === null ? (event.user ? [userChannel(event.user.id)] : []) : (def.channels?.(event.record) ?? []);
  const audiences: Audience[] = extra.length ? [{ channels: extra, hidden: new Set() }] : [];
  if (def.ownerColumn) {
    const owner = event.record[def.ownerColumn];
    if (owner) audiences.push({ channels: [userChannel(owner)], hidden: new Set() });
    return audiences;
  }
  const byMask = new Map<string, Audience>();
  for (const readers of await readersOf(ctx.db, ctx.records.access, def, event.record, await roles.all())) {
    const key = [...readers.mask.hidden].sort().join(',');
    const audience = byMask.get(key) ?? { channels: [], hidden: readers.mask.hidden };
    byMask.set(key, audience);
    if (readers.members === 'role') audience.channels.push(roleChannel(readers.roleId));
    else audience.channels.push(...readers.members.map(userChannel));
  }
  return [...audiences, ...byMask.values()];
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
  const roles = KeptRoles.of(ctx.database);
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
    // A type whose records read differently per person (hooks.presentFor: a visit's head counts) cannot send one
    // record to a whole channel: its browsers are told what changed and read it again with their own permissions.
    const whole = event.resource.hooks?.presentFor ? null : event.record;
    const sent = new Set<string>();
    for (const audience of await audiencesOf(ctx, roles, event)) {
      const channels = [...new Set(audience.channels)].filter((channel) => !sent.has(channel));
      if (!channels.length) continue;
      for (const channel of channels) sent.add(channel);
      const data =
        whole && audience.hidden.size ? masked([whole], { hidden: audience.hidden, readOnly: new Set() })[0] : whole;
      const payload = { type: event.type, id: event.id, data };
      for (const name of MODEL_EVENTS[event.event])
        await ctx.realtime.publish(channels, `App.Events.${name}`, payload, { exceptSocketId: event.socketId });
    }
  });
}
