import { useSyncExternalStore } from 'react';
import { mainData, session } from './services';
import { DEFAULT_CONFIG, type SystemConfig } from '../system/types';
import type { MainDataState } from '../system/mainData';
import type { SessionState } from '../session/types';

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
