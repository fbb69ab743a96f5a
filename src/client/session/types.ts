import type { SignedInUser } from '../../common/signed-in-user';

/** The signed-in person (docs/api.md "The signed-in user object"). */
export type SessionUser = SignedInUser;

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
