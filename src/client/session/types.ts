import type { PermissionSubject } from '../../common/permissions';

/** The signed-in person (docs/api.md "The signed-in user object"). */
export interface SessionUser extends PermissionSubject {
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

export interface SessionState {
  user: SessionUser | null;
  /** True once the server has been asked who the person is (or a login/register answered). */
  checked: boolean;
  /**
   * Set when the person signed out here (Sign Out or the inactivity timeout) until they sign in again, so the
   * route guard does not save the page they left as the intended URL.
   */
  endedBy?: 'logout' | 'timeout';
}
