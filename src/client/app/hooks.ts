import { useSyncExternalStore } from 'react';
import type { SessionState } from '../session/types';
import type { MainDataState } from '../system/mainData';
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
