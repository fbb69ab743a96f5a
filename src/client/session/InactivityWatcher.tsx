/**
 * Runs the inactivity timer while someone is signed in (SPEC section 4): the warning modal after the idle
 * time, sign-out at the end of the countdown, then /login with the 'Session Timeout' modal. Off on a local
 * development host on port 8000; durations from /api/system/config or the localStorage override.
 */
import { useEffect, useRef } from 'react';
import { useLogout } from 'react-admin';
import { useConfig, useSession } from '../app/hooks';
import { INACTIVITY_OVERRIDE_KEY, InactivityTimer, resolveInactivitySettings } from './inactivity';
import { notices } from './notices';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'scroll', 'touchstart', 'pointerdown'] as const;

function readOverride(): string | null {
  try {
    return localStorage.getItem(INACTIVITY_OVERRIDE_KEY);
  } catch {
    return null;
  }
}

/** The running timer, for the Stay Signed In button. */
export const activeTimer: { current: InactivityTimer | null } = { current: null };

export function InactivityWatcher() {
  const { user } = useSession();
  const config = useConfig();
  const logout = useLogout();
  const logoutRef = useRef(logout);
  logoutRef.current = logout;
  const signedIn = user !== null;
  const idle = config.session?.idle_timeout_ms;
  const countdown = config.session?.countdown_seconds;

  useEffect(() => {
    if (!signedIn) return;
    const settings = resolveInactivitySettings({
      config: { idle_timeout_ms: idle, countdown_seconds: countdown },
      hostname: window.location.hostname,
      port: window.location.port,
      override: readOverride(),
    });
    if (!settings.enabled) return;
    // Load the modal's code now, so the notice shows the moment it is due.
    void import('./SessionDialogs');
    const timer = new InactivityTimer(settings, {
      onWarn: (seconds) => notices.setExpiringIn(seconds),
      onTick: (seconds) => notices.setExpiringIn(seconds),
      onStay: () => notices.setExpiringIn(null),
      onExpire: () => {
        notices.setExpiringIn(null);
        void Promise.resolve(logoutRef.current({ reason: 'timeout' }, '/login', false)).then(() =>
          notices.showTimedOut(),
        );
      },
    });
    activeTimer.current = timer;
    const onActivity = () => timer.activity();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    timer.start();
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      timer.stop();
      if (activeTimer.current === timer) activeTimer.current = null;
      notices.setExpiringIn(null);
    };
  }, [signedIn, idle, countdown]);

  return null;
}
