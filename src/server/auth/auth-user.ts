import { z } from 'zod';
import type { SignedInUser } from '../../common/signed-in-user.js';

/** The signed-in person as every route and the realtime hub see them. */
export type AuthUser = SignedInUser;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session plugin before any handler runs; null when signed out. */
    user: AuthUser | null;
  }
}

/** The signed-in person as the API answers with it (GET /api/auth/check, docs/api.md). */
export const signedInUser = z
  .object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.object({ id: z.number().int(), slug: z.string(), name: z.string(), incognito: z.boolean() }).nullable(),
    role_id: z.number().int().nullable(),
    permissions: z.array(z.string()),
    team_id: z.number().int().nullable(),
    team_ids: z.array(z.number().int()),
    realtime_key: z.string(),
    incognito: z.boolean(),
    impersonator: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    preferences: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'SignedInUser' });
