import { afterEach, describe, expect, it, vi } from 'vitest';
import { PresenceExchange, type PresenceNotice } from '../../src/server/realtime/presence-exchange.js';

const log = { error: vi.fn() } as any;

/** Processes joined by a bus that hands every notice to every process, as the relay does. */
function cluster(count: number, aliveMs = 1_000) {
  const announced: Array<{ process: number; event: string; userId: string }> = [];
  const exchanges: PresenceExchange[] = [];
  const reachable = new Set<number>();
  for (let index = 0; index < count; index++) {
    reachable.add(index);
    exchanges.push(
      new PresenceExchange({
        publish: async (notice: PresenceNotice) => {
          if (!reachable.has(index)) return;
          for (const other of exchanges) other.receive(structuredClone(notice));
        },
        announce: (change, event) => announced.push({ process: index, event, userId: change.userId }),
        log,
        aliveMs,
      }),
    );
  }
  return { exchanges, announced, silence: (index: number) => reachable.delete(index) };
}

afterEach(() => vi.useRealTimers());

describe('presence shared between processes', () => {
  it('counts a person once across processes and tabs, and lets them leave with their last socket', () => {
    const {
      exchanges: [a, b],
      announced,
    } = cluster(2);
    expect(a.join('presence-site.1', '7', { name: 'Ann' }, 's1')).toBe(true);
    expect(b.snapshot('presence-site.1')).toEqual({ ids: ['7'], hash: { '7': { name: 'Ann' } }, count: 1 });
    expect(announced).toEqual([{ process: 1, event: 'member_added', userId: '7' }]);

    // A second tab on the other process: already present, nobody is told again.
    expect(b.join('presence-site.1', '7', { name: 'Ann' }, 's2')).toBe(false);
    expect(announced).toHaveLength(1);
    expect(a.leave('presence-site.1', '7', 's1')).toBe(false);
    expect(b.snapshot('presence-site.1').count).toBe(1);
    expect(b.leave('presence-site.1', '7', 's2')).toBe(true);
    expect(a.snapshot('presence-site.1').count).toBe(0);
    expect(announced.at(-1)).toEqual({ process: 0, event: 'member_removed', userId: '7' });
  });

  it('drops the people of a process that says it is gone', async () => {
    const {
      exchanges: [a, b],
      announced,
    } = cluster(2);
    a.join('presence-site.3', '5', {}, 's1');
    b.join('presence-site.3', '6', {}, 's2');
    await a.stop();
    expect(b.snapshot('presence-site.3').ids).toEqual(['6']);
    expect(announced.at(-1)).toEqual({ process: 1, event: 'member_removed', userId: '5' });
  });

  it('tells a process that starts late who is present, and drops a process that falls silent', () => {
    vi.useFakeTimers();
    const {
      exchanges: [a, b, c],
      announced,
      silence,
    } = cluster(3);
    a.join('presence-site.2', '1', {}, 's1');
    b.join('presence-site.2', '2', {}, 's2');
    for (const exchange of [a, b, c]) exchange.start();
    expect(c.snapshot('presence-site.2').ids.sort()).toEqual(['1', '2']);

    // A is killed: no "gone", it just stops talking. After three silent periods the others drop its people.
    silence(0);
    vi.advanceTimersByTime(2_500);
    expect(b.snapshot('presence-site.2').ids).toEqual(['1', '2']);
    vi.advanceTimersByTime(2_000);
    expect(b.snapshot('presence-site.2').ids).toEqual(['2']);
    expect(c.snapshot('presence-site.2').ids).toEqual(['2']);
    expect(
      announced
        .filter((entry) => entry.event === 'member_removed')
        .map((entry) => entry.process)
        .sort(),
    ).toEqual([1, 2]);
    for (const exchange of [a, b, c]) void exchange.stop();
  });
});
