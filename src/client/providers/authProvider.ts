/**
 * react-admin authProvider over the session store (SPEC section 4) and the /api/auth calls (docs/api.md).
 *
 * Redirects for signed-out visitors are done by the route guard (routing/RequireAuth), which stores the
 * intended path first; so checkAuth/checkError never ask react-admin to log out by themselves (react-admin's
 * logout would wipe the intended URL).
 */
import type { AuthProvider, UserIdentity } from 'react-admin';
import type { HttpClient } from '../http/client';
import { ApiError } from '../http/errors';
import type { SessionStore } from '../session/sessionStore';
import type { SessionUser } from '../session/types';
import { canAccessResource } from './access';

export interface LoginParams {
  email: string;
  password: string;
  remember?: boolean;
}

export interface AppAuthProvider extends AuthProvider {
  register(data: Record<string, unknown>): Promise<SessionUser>;
  impersonate(id: number | string): Promise<SessionUser>;
  /** Back to the administrator who is acting as someone else. */
  leaveImpersonation(): Promise<void>;
  requestPasswordReset(email: string): Promise<string>;
  updatePassword(data: {
    token: string;
    email: string;
    password: string;
    password_confirmation: string;
  }): Promise<string>;
}

export function createAuthProvider(http: HttpClient, session: SessionStore): AppAuthProvider {
  return {
    async login({ email, password, remember = false }: LoginParams) {
      const response = await http.post<{ data: SessionUser }>('/api/auth/login', {
        email,
        password,
        remember: Boolean(remember),
      });
      session.setUser(response.data.data);
      const redirectTo = session.getIntendedUrl() ?? '/';
      session.clearIntendedUrl();
      return { redirectTo };
    },

    async logout(params?: { reason?: 'timeout' }) {
      const wasSignedIn = session.authenticated;
      if (wasSignedIn) {
        try {
          await http.post('/api/auth/logout', undefined, { refreshSessionOnFailure: false });
        } catch (error) {
          // Signing out locally still happens; the server session ends on its own.
          console.error('Error signing out:', error);
        }
      }
      session.clear(params?.reason === 'timeout' ? 'timeout' : 'logout');
      return '/login';
    },

    async checkAuth() {
      const user = await session.check();
      if (!user) throw { redirectTo: '/login', message: false, logoutUser: false };
    },

    async checkError(error: unknown) {
      // The HTTP client already refreshed the session state for this failed response. A 401/419 means
      // the session is gone: the guard sends the person to /login once the refresh has settled.
      const status = error instanceof ApiError ? error.status : (error as { status?: number } | null)?.status;
      if (status === 401 || status === 419) {
        const user = await session.refresh();
        if (!user) throw { redirectTo: false, logoutUser: false, message: false };
      }
    },

    async getIdentity(): Promise<UserIdentity> {
      const user = await session.check();
      if (!user) throw new ApiError('bad-request', 'You are signed out. Please sign in again.', 401);
      return { ...user, id: user.id, fullName: user.name || `${user.first_name} ${user.last_name}`.trim() };
    },

    async getPermissions() {
      const user = await session.check();
      return user?.permissions ?? [];
    },

    async canAccess({ resource, action, record }) {
      const user = await session.check();
      return canAccessResource(user, resource, action, record);
    },

    async register(data) {
      const response = await http.post<{ data: SessionUser }>('/api/auth/register', data);
      session.setUser(response.data.data);
      return response.data.data;
    },

    async impersonate(id) {
      const response = await http.post<{ data: SessionUser }>(
        `/api/auth/impersonate/${encodeURIComponent(String(id))}`,
      );
      session.setUser(response.data.data);
      return response.data.data;
    },

    async leaveImpersonation() {
      await http.post('/api/auth/impersonate/leave');
    },

    async requestPasswordReset(email) {
      const response = await http.post<{ message?: string }>('/api/password/reset', { email });
      return response.data?.message ?? 'If the address is registered, a reset link is on its way.';
    },

    async updatePassword(data) {
      const response = await http.post<{ message?: string }>('/api/password/update', data);
      return response.data?.message ?? 'Your password has been updated.';
    },
  };
}
