import { describe, expect, it } from 'vitest';
import { recordFromPath } from '../../../src/client/assistant/recordContext';
import { applyEvent } from '../../../src/client/assistant/streaming';
import { buildMenu } from '../../../src/client/layout/menuModel';
import { planRealtimeEvent } from '../../../src/client/realtime/events';
import { revisionAuthor } from '../../../src/client/records/history/history';

describe('the record "this" means', () => {
  const schemas = [
    { type: 'site', resource: 'sites' },
    { type: 'vehicle', resource: 'vehicles' },
  ];
  it('is the record whose page is open, its show or edit page, custom types included', () => {
    expect(recordFromPath('/sites/12/show', schemas)).toEqual({ type: 'site', id: 12 });
    expect(recordFromPath('/sites/12', schemas)).toEqual({ type: 'site', id: 12 });
    expect(recordFromPath('/vehicles/3/show', schemas)).toEqual({ type: 'vehicle', id: 3 });
    expect(recordFromPath('/contractors/7/show', [])).toEqual({ type: 'contractor', id: 7 });
  });
  it('is nothing on a list, the map or a page that is no record', () => {
    for (const path of [
      '/',
      '/map',
      '/sites',
      '/sites/create',
      '/assistant',
      '/reports/market-share',
      '/sites/deleted',
    ])
      expect(recordFromPath(path, schemas), path).toBeNull();
  });
});

describe('an answer being written', () => {
  it('puts each piece at its offset, so a repeated or late piece does not garble it', () => {
    let state = applyEvent(new Map(), {
      thread_id: 1,
      reply_to: 5,
      status: 'streaming',
      offset: 0,
      delta: 'There are ',
    });
    state = applyEvent(state, { thread_id: 1, reply_to: 5, status: 'streaming', offset: 10, delta: '**12** sites' });
    state = applyEvent(state, { thread_id: 1, reply_to: 5, status: 'streaming', offset: 10, delta: '**12** sites.' });
    expect(state.get(5)).toEqual({ text: 'There are **12** sites.', status: 'streaming' });
    state = applyEvent(state, { thread_id: 1, reply_to: 5, status: 'done', message_id: 9 });
    expect(state.get(5)).toEqual({ text: 'There are **12** sites.', status: 'done' });
  });
});

describe('assistant realtime events', () => {
  it('a piece of an answer refetches nothing; the end of an answer and AssistantRefresh refetch threads and messages', () => {
    expect(planRealtimeEvent('AssistantMessage', { status: 'streaming', delta: 'x' }, null).invalidate).toEqual([]);
    expect(planRealtimeEvent('AssistantMessage', { status: 'done' }, null).invalidate).toEqual([
      'assistant/threads',
      'assistant/messages',
    ]);
    expect(planRealtimeEvent('.App.Events.AssistantRefresh', {}, null).invalidate).toEqual([
      'assistant/threads',
      'assistant/messages',
    ]);
  });
});

describe('the Assistant sidebar item', () => {
  const features = [{ id: 1, slug: 'assistant', name: 'Assistant', enabled: true }];
  const subject = (permissions: string[]) => ({ role_id: 1, permissions });
  it('opens the panel (no route) behind the assistant feature and the permission to read conversations', () => {
    const item = buildMenu({
      user: subject(['assistant-thread:read']),
      features,
      schemas: [],
      statistics: {},
    }).main.find((i) => i.key === 'assistant');
    expect(item).toMatchObject({ label: 'Assistant', action: 'assistant', icon: 'assistant' });
    expect(item?.to).toBeUndefined();
    expect(
      buildMenu({ user: subject([]), features, schemas: [], statistics: {} }).main.map((i) => i.key),
    ).not.toContain('assistant');
    expect(
      buildMenu({
        user: subject(['assistant-thread:read']),
        features: [{ ...features[0], enabled: false }],
        schemas: [],
        statistics: {},
      }).main.map((i) => i.key),
    ).not.toContain('assistant');
  });
});

describe('history', () => {
  it('says when a change was proposed by the assistant', () => {
    expect(revisionAuthor({ user_name: 'Alice Organizer', via: 'assistant' })).toBe(
      'Alice Organizer, proposed by the assistant',
    );
    expect(revisionAuthor({ user_name: null, via: null })).toBe('System');
  });
});
