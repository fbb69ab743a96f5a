export interface RealtimeConfig {
  broadcaster?: string;
  key: string;
  host?: string | null;
  port?: number | string | null;
  scheme?: 'http' | 'https' | string | null;
  cluster?: string | null;
  force_tls?: boolean | null;
  auth_endpoint?: string;
  user_auth_endpoint?: string;
}

/** GET /api/system/config (docs/api.md "System"). */
export interface SystemConfig {
  name: string;
  logo_url?: string | null;
  privacy_url?: string | null;
  terms_url?: string | null;
  support_url?: string | null;
  version?: string;
  registration_enabled?: boolean;
  analytics_url?: string | null;
  tiles?: { url: string; attribution: string };
  realtime?: RealtimeConfig | null;
  session?: { idle_timeout_ms?: number; countdown_seconds?: number } | null;
}

export interface Feature {
  id: number;
  slug: string;
  name: string;
  enabled: boolean;
}

export interface SchemaField {
  id: number | string;
  slug: string;
  name: string;
  internal?: boolean;
  type?: string;
  [key: string]: unknown;
}

export interface Schema {
  id: number;
  type: string;
  name_singular: string;
  name_plural: string;
  fields?: SchemaField[];
  actions?: unknown[];
  position?: number;
}

export interface Statistics {
  tasks_open?: number;
  notifications_unread?: number;
  [key: string]: unknown;
}

export const DEFAULT_CONFIG: SystemConfig = {
  name: 'Organizing Map',
  logo_url: '/logo.svg',
  privacy_url: '/privacy.html',
  terms_url: '/terms.html',
  support_url: 'mailto:support@example.com',
};
