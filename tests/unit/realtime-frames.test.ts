import { describe, expect, it } from 'vitest';
import { frame, framesOf } from '../../src/server/realtime/protocol.js';

/** One event on many channels (the hub's deliver): each channel's frame is exactly the one `frame` writes. */
describe('framesOf', () => {
  const record = { type: 'site', id: 7, data: { name: 'Yard "north" \\ 2', notes: 'line\nbreak', é: 'ü', n: null } };

  it.each([
    ['a record', record, undefined],
    ['an encoded string', JSON.stringify(record), undefined],
    ['with the sender', record, { user_id: '42' }],
    ['nothing', undefined, undefined],
  ])('writes what frame writes: %s', (_, data, extra) => {
    const frameOn = framesOf('App.Events.ModelUpdated', data, extra);
    for (const channel of ['private-App.Models.User.3', 'presence-"odd"-channel'])
      expect(frameOn(channel)).toBe(frame('App.Events.ModelUpdated', data, channel, extra));
  });
});
