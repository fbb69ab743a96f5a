import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  InactivityTimer,
  isLocalDevelopmentHost,
  resolveInactivitySettings,
} from '../../../src/client/session/inactivity';

describe('inactivity settings', () => {
  it('defaults to 30 minutes and 60 seconds', () => {
    expect(resolveInactivitySettings({ hostname: 'app.example.com', port: '' })).toEqual({
      enabled: true,
      idleTimeoutMs: 1_800_000,
      countdownSeconds: 60,
    });
  });

  it('is off on a local development host on port 8000 only', () => {
    expect(isLocalDevelopmentHost('localhost', '8000')).toBe(true);
    expect(isLocalDevelopmentHost('127.0.0.1', 8000)).toBe(true);
    expect(isLocalDevelopmentHost('localhost', '8123')).toBe(false);
    expect(isLocalDevelopmentHost('example.com', '8000')).toBe(false);
    expect(resolveInactivitySettings({ hostname: 'localhost', port: '8000' }).enabled).toBe(false);
    expect(resolveInactivitySettings({ hostname: '127.0.0.1', port: '8123' }).enabled).toBe(true);
  });

  it('takes durations from the server config, and a localStorage override over that', () => {
    const config = { idle_timeout_ms: 5000, countdown_seconds: 10 };
    expect(resolveInactivitySettings({ hostname: 'h', port: '1', config })).toEqual({
      enabled: true,
      idleTimeoutMs: 5000,
      countdownSeconds: 10,
    });
    const override = JSON.stringify({ idle_timeout_ms: 1500, countdown_seconds: 3 });
    expect(resolveInactivitySettings({ hostname: 'h', port: '1', config, override })).toEqual({
      enabled: true,
      idleTimeoutMs: 1500,
      countdownSeconds: 3,
    });
    expect(
      resolveInactivitySettings({ hostname: 'localhost', port: '8000', override: '{"enabled":true}' }).enabled,
    ).toBe(true);
    expect(resolveInactivitySettings({ hostname: 'h', port: '1', override: 'not json' }).idleTimeoutMs).toBe(1_800_000);
    expect(resolveInactivitySettings({ hostname: 'h', port: '1', config: { idle_timeout_ms: -1 } }).idleTimeoutMs).toBe(
      1_800_000,
    );
  });
});

describe('inactivity timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = (idleTimeoutMs = 10_000, countdownSeconds = 5) => {
    const events: string[] = [];
    const timer = new InactivityTimer(
      { idleTimeoutMs, countdownSeconds },
      {
        onWarn: (s) => events.push(`warn ${s}`),
        onTick: (s) => events.push(`tick ${s}`),
        onExpire: () => events.push('expire'),
        onStay: () => events.push('stay'),
      },
    );
    return { timer, events };
  };

  it('warns after the idle time, counts down each second and expires at zero', () => {
    const { timer, events } = make();
    timer.start();
    vi.advanceTimersByTime(9_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['warn 5']);
    expect(timer.phase).toBe('warning');
    expect(timer.secondsLeft).toBe(5);
    vi.advanceTimersByTime(2_000);
    expect(events).toEqual(['warn 5', 'tick 4', 'tick 3']);
    vi.advanceTimersByTime(3_000);
    expect(events).toEqual(['warn 5', 'tick 4', 'tick 3', 'tick 2', 'tick 1', 'tick 0', 'expire']);
    expect(timer.phase).toBe('expired');
  });

  it('activity resets the idle timer', () => {
    const { timer, events } = make();
    timer.start();
    vi.advanceTimersByTime(8_000);
    timer.activity();
    vi.advanceTimersByTime(8_000);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(2_000);
    expect(events).toEqual(['warn 5']);
  });

  it('activity during the warning does not dismiss it; Stay Signed In does', () => {
    const { timer, events } = make();
    timer.start();
    vi.advanceTimersByTime(10_000);
    timer.activity();
    vi.advanceTimersByTime(1_000);
    expect(events).toEqual(['warn 5', 'tick 4']);
    timer.stay();
    expect(timer.phase).toBe('idle');
    vi.advanceTimersByTime(9_999);
    expect(events).toEqual(['warn 5', 'tick 4', 'stay']);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['warn 5', 'tick 4', 'stay', 'warn 5']);
  });

  it('stop cancels everything', () => {
    const { timer, events } = make();
    timer.start();
    timer.stop();
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual([]);
    expect(timer.phase).toBe('stopped');
  });
});
