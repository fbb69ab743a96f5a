/**
 * pusher-js options from /api/system/config, and the auth handlers that POST form-encoded `socket_id` and
 * `channel_name` with credentials and the CSRF header read from the cookie at call time.
 */
import type { RealtimeConfig } from '../system/types';

export interface Location {
  hostname: string;
  port: string;
  protocol: string;
}

export interface AuthDeps {
  fetch: typeof fetch;
  /** Ensures the CSRF cookie exists and returns its (decoded) value. */
  csrfToken: () => Promise<string | undefined>;
}

type Callback = (error: Error | null, data: any) => void;

async function postForm(
  deps: AuthDeps,
  endpoint: string,
  fields: Record<string, string>,
  callback: Callback,
): Promise<void> {
  try {
    const token = await deps.csrfToken();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Requested-With': 'XMLHttpRequest',
    };
    if (token) headers['X-XSRF-TOKEN'] = token;
    if (fields.socket_id) headers['X-Socket-Id'] = fields.socket_id;
    const response = await deps.fetch(endpoint, {
      method: 'POST',
      credentials: 'include',
      headers,
      body: new URLSearchParams(fields).toString(),
    });
    if (!response.ok) {
      callback(new Error(`Realtime authorisation failed (${response.status}) at ${endpoint}`), null);
      return;
    }
    callback(null, await response.json());
  } catch (error) {
    callback(error instanceof Error ? error : new Error(String(error)), null);
  }
}

export function pusherOptions(config: RealtimeConfig, location: Location, deps: AuthDeps) {
  const secure = config.scheme ? config.scheme === 'https' : location.protocol === 'https:';
  const forceTLS = config.force_tls ?? secure;
  const host = config.host || location.hostname;
  const port = Number(config.port || location.port || (secure ? 443 : 80));
  const authEndpoint = config.auth_endpoint || '/broadcasting/auth';
  const userAuthEndpoint = config.user_auth_endpoint || '/broadcasting/user-auth';
  return {
    cluster: config.cluster || 'mt1',
    wsHost: host,
    wsPort: port,
    wssPort: port,
    forceTLS,
    enabledTransports: ['ws', 'wss'] as ('ws' | 'wss')[],
    disableStats: true,
    channelAuthorization: {
      customHandler: (params: { socketId: string; channelName: string }, callback: Callback) => {
        void postForm(deps, authEndpoint, { socket_id: params.socketId, channel_name: params.channelName }, callback);
      },
    },
    userAuthentication: {
      customHandler: (params: { socketId: string }, callback: Callback) => {
        void postForm(deps, userAuthEndpoint, { socket_id: params.socketId }, callback);
      },
    },
  };
}
