/**
 * Inactivity logic of SPEC section 4 (no React here): after `idleTimeoutMs` without activity the warning
 * starts and counts down `countdownSeconds`; at zero the person is signed out. Activity before the
 * warning resets the timer; once the warning shows, only "Stay Signed In" (stay()) resets it.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 1_800_000;
export const DEFAULT_COUNTDOWN_SECONDS = 60;
/** localStorage key for tests: JSON `{"idle_timeout_ms": 3000, "countdown_seconds": 5, "enabled": true}`. */
export const INACTIVITY_OVERRIDE_KEY = 'inactivityOverride';

export interface InactivitySettings {
  enabled: boolean;
  idleTimeoutMs: number;
  countdownSeconds: number;
}

interface SessionSettings {
  idle_timeout_ms?: number;
  countdown_seconds?: number;
  enabled?: boolean;
}

/** Off on a local development host: localhost / 127.0.0.1 on port 8000. */
export function isLocalDevelopmentHost(hostname: string, port: string | number): boolean {
  const local = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
  return local && String(port) === '8000';
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

export function parseOverride(raw: string | null | undefined): SessionSettings | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as SessionSettings) : undefined;
  } catch {
    return undefined;
  }
}

export function resolveInactivitySettings(input: {
  config?: SessionSettings | null;
  hostname: string;
  port: string | number;
  override?: string | null;
}): InactivitySettings {
  const override = parseOverride(input.override);
  const idleTimeoutMs =
    positive(override?.idle_timeout_ms) ?? positive(input.config?.idle_timeout_ms) ?? DEFAULT_IDLE_TIMEOUT_MS;
  const countdownSeconds = Math.round(
    positive(override?.countdown_seconds) ?? positive(input.config?.countdown_seconds) ?? DEFAULT_COUNTDOWN_SECONDS,
  );
  const enabled =
    typeof override?.enabled === 'boolean' ? override.enabled : !isLocalDevelopmentHost(input.hostname, input.port);
  return { enabled, idleTimeoutMs, countdownSeconds };
}

export type InactivityPhase = 'stopped' | 'idle' | 'warning' | 'expired';

export interface InactivityCallbacks {
  /** The warning starts, with the seconds left. */
  onWarn(secondsLeft: number): void;
  /** Each second of the countdown. */
  onTick(secondsLeft: number): void;
  /** The countdown reached zero: sign out. */
  onExpire(): void;
  /** The warning was dismissed with stay(). */
  onStay?(): void;
}

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class InactivityTimer {
  private phaseValue: InactivityPhase = 'stopped';
  private lastActivity = 0;
  private deadline = 0;
  private handle: unknown = null;
  private lastSeconds = -1;

  constructor(
    private readonly settings: Pick<InactivitySettings, 'idleTimeoutMs' | 'countdownSeconds'>,
    private readonly callbacks: InactivityCallbacks,
    private readonly clock: Clock = systemClock,
  ) {}

  get phase(): InactivityPhase {
    return this.phaseValue;
  }

  get secondsLeft(): number {
    if (this.phaseValue !== 'warning') return this.settings.countdownSeconds;
    return Math.max(0, Math.ceil((this.deadline - this.clock.now()) / 1000));
  }

  start(): void {
    this.phaseValue = 'idle';
    this.lastActivity = this.clock.now();
    this.schedule(this.settings.idleTimeoutMs);
  }

  /** Activity (pointer, key, scroll, touch). Cheap: only records the time while idle. */
  activity(): void {
    if (this.phaseValue === 'idle') this.lastActivity = this.clock.now();
  }

  /** "Stay Signed In". */
  stay(): void {
    if (this.phaseValue !== 'warning' && this.phaseValue !== 'idle') return;
    const wasWarning = this.phaseValue === 'warning';
    this.start();
    if (wasWarning) this.callbacks.onStay?.();
  }

  stop(): void {
    this.clear();
    this.phaseValue = 'stopped';
  }

  private clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule(ms: number): void {
    this.clear();
    this.handle = this.clock.setTimeout(() => this.check(), Math.max(0, ms));
  }

  private check(): void {
    this.handle = null;
    const now = this.clock.now();
    if (this.phaseValue === 'idle') {
      const idleFor = now - this.lastActivity;
      if (idleFor < this.settings.idleTimeoutMs) {
        this.schedule(this.settings.idleTimeoutMs - idleFor);
        return;
      }
      this.phaseValue = 'warning';
      this.deadline = now + this.settings.countdownSeconds * 1000;
      this.lastSeconds = this.settings.countdownSeconds;
      this.callbacks.onWarn(this.settings.countdownSeconds);
      this.scheduleTick();
      return;
    }
    if (this.phaseValue === 'warning') {
      const seconds = this.secondsLeft;
      if (seconds !== this.lastSeconds) {
        this.lastSeconds = seconds;
        this.callbacks.onTick(seconds);
      }
      if (seconds <= 0) {
        this.phaseValue = 'expired';
        this.callbacks.onExpire();
        return;
      }
      this.scheduleTick();
    }
  }

  /** Wake at the next whole-second boundary of the countdown. */
  private scheduleTick(): void {
    const remaining = this.deadline - this.clock.now();
    const untilNextSecond = remaining % 1000 || 1000;
    this.schedule(Math.min(untilNextSecond, Math.max(remaining, 0)));
  }
}
