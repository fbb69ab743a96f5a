import { useSyncExternalStore } from 'react';
import type { SessionState, SessionUser } from '../session/types';
import type { MainDataKey, MainDataState } from '../system/mainData';
import { DEFAULT_CONFIG, type SystemConfig } from '../system/types';
import { mainData, session } from './services';

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}

export function useMainData(): MainDataState {
  return useSyncExternalStore(mainData.subscribe, mainData.getState, mainData.getState);
}

/** The system config, with built-in defaults until it has loaded. */
export function useConfig(): SystemConfig {
  const { config } = useMainData();
  return config ?? DEFAULT_CONFIG;
}

/** Reads a part of the main data again: after one's own change, which the server does not echo to this tab. */
export function reloadMainData(part: MainDataKey): Promise<void> {
  return mainData.load(part);
}

/** Takes the signed-in person's record as the server now has it (after they change their own profile). */
export function adoptSessionUser(user: SessionUser): void {
  session.setUser(user);
}
