import { describe, expect, it } from 'vitest';
import {
  actionInWords,
  conditionInWords,
  linesFromValues,
  triggerInWords,
  valuesFromLines,
} from '../../../src/client/automations/words';

describe('automations in plain words', () => {
  it('says each trigger kind', () => {
    expect(triggerInWords({ kind: 'created' }, 'job site')).toBe('When a job site is created');
    expect(triggerInWords({ kind: 'field_changed', field: 'status', to: 'won' }, 'job site')).toBe(
      'When a job site\'s status changes to "won"',
    );
    expect(triggerInWords({ kind: 'date_reached', field: 'bid_date', days: -7 }, 'job site')).toBe(
      "7 days before a job site's bid_date",
    );
    expect(triggerInWords({ kind: 'schedule', at: '07:00', days: ['mon'] })).toBe('Every Monday at 07:00');
    expect(triggerInWords({ kind: 'schedule', at: '07:00' })).toBe('Every day at 07:00');
    expect(triggerInWords({ kind: 'webhook' })).toBe('When a message arrives at its web address');
  });

  it('says each action kind, and a branch with its sides', () => {
    expect(actionInWords({ kind: 'set_fields', values: { status: 'won' } })).toBe('Set status to "won"');
    expect(actionInWords({ kind: 'create_record', record_type: 'task', values: { title: 'Call {{site.name}}' } })).toBe(
      'Create a task with title to "Call {{site.name}}"',
    );
    expect(actionInWords({ kind: 'notify', role: 'leader', record_owner: true, title: 'Hi' })).toBe(
      'Notify everyone with the leader role and the record\'s owner: "Hi"',
    );
    expect(actionInWords({ kind: 'email', to: ['a@example.org'], subject: 'S' })).toBe('Email a@example.org: "S"');
    expect(actionInWords({ kind: 'webhook', url: 'https://example.org/h' })).toBe('Call https://example.org/h');
    expect(
      actionInWords({
        kind: 'branch',
        yes: [{ kind: 'webhook', url: 'https://x.org' }],
        no: [{ kind: 'email', to: ['b@x.org'], subject: 'N' }],
      }),
    ).toBe('If the record meets its test: Call https://x.org; otherwise: Email b@x.org: "N"');
    expect(conditionInWords({ field: 'type', op: 'eq', value: 'union' })).toBe('type is "union"');
  });

  it('reads and writes values as "field = value" lines', () => {
    expect(valuesFromLines('title = Call {{site.name}}\n\nbad line\ntype=call')).toEqual({
      title: 'Call {{site.name}}',
      type: 'call',
    });
    expect(linesFromValues({ title: 'x', n: 2 })).toBe('title = x\nn = 2');
  });
});
