import type { RolePolicy } from './access-rules.js';
import type { PermissionSubject } from './permissions.js';

/** The signed-in person: the body of GET /api/auth/check (docs/api.md), as the server builds it and the client keeps it. */
export interface SignedInUser extends PermissionSubject {
  id: number;
  first_name: string;
  last_name: string;
  name: string;
  email: string;
  role: { id: number; slug: string; name: string; incognito: boolean } | null;
  role_id: number | null;
  permissions: string[];
  /** The role's row and field rules by record type (common/access-rules.ts); `{}` for none. */
  policy?: RolePolicy;
  team_id: number | null;
  team_ids: number[];
  realtime_key: string;
  incognito: boolean;
  impersonator: { id: number; name: string } | null;
  /** Screen preferences kept with the person (a list's columns under `grid:<resource>`). */
  preferences?: Record<string, unknown>;
}
