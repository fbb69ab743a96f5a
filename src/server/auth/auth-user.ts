import type { SignedInUser } from '../../common/signed-in-user.js';

/** The signed-in person as every route and the realtime hub see them. */
export type AuthUser = SignedInUser;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session plugin before any handler runs; null when signed out. */
    user: AuthUser | null;
  }
}
