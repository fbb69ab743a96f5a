import type { PermissionSubject } from '../../common/permissions.js';

/** The signed-in person as every route and the realtime hub see them (also the body of GET /api/auth/check). */
export interface AuthUser extends PermissionSubject {
  id: number;
  first_name: string;
  last_name: string;
  name: string;
  email: string;
  role: { id: number; slug: string; name: string; incognito: boolean } | null;
  role_id: number | null;
  permissions: string[];
  team_id: number | null;
  team_ids: number[];
  realtime_key: string;
  incognito: boolean;
  impersonator: { id: number; name: string } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session plugin before any handler runs; null when signed out. */
    user: AuthUser | null;
  }
}
