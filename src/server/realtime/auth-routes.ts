import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthUser } from '../auth/auth-user.js';
import { messageAnswer } from '../http/contracts.js';
import type { ChannelRules } from './channel-rules.js';
import { CHANNEL_NAME_MAX_LENGTH, CHANNEL_NAME_PATTERN, channelKind, SOCKET_ID_PATTERN } from './protocol.js';
import type { Signer } from './signing.js';

/** A required text field in Laravel's words: one message for it, whatever is wrong. */
const field = (name: string, checks: Array<[(value: string) => boolean, string]>) =>
  z
    .string({
      error: (issue) =>
        issue.input == null ? `The ${name} field is required.` : `The ${name} field format is invalid.`,
    })
    .superRefine((value, ctx) => {
      const failed = [[(v: string) => v !== '', `The ${name} field is required.`] as const, ...checks].find(
        ([check]) => !check(value),
      );
      if (failed) ctx.addIssue({ code: 'custom', message: failed[1] });
    });

const socketId = field('socket id', [[(v) => SOCKET_ID_PATTERN.test(v), 'The socket id field format is invalid.']]);
const channelName = field('channel name', [
  [(v) => CHANNEL_NAME_PATTERN.test(v), 'The channel name field format is invalid.'],
  [
    (v) => v.length <= CHANNEL_NAME_MAX_LENGTH,
    `The channel name field must not be greater than ${CHANNEL_NAME_MAX_LENGTH} characters.`,
  ],
  [
    (v) => ['private', 'presence'].includes(channelKind(v)),
    'The channel name must start with private- or presence-; public channels need no authorisation.',
  ],
]);

/** What pusher-js sends (form-encoded in the browser). */
const channelAuthBody = z.looseObject({ socket_id: socketId, channel_name: channelName });
const userAuthBody = z.looseObject({ socket_id: socketId });

/**
 * The endpoints pusher-js calls (form-encoded, as in the browser) before joining a private or presence
 * channel and before `pusher:signin`. They answer with signatures the hub checks, so the hub itself never
 * needs to know about sessions.
 */
export function registerAuthRoutes(fastify: FastifyInstance, signer: Signer, rules: ChannelRules): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/broadcasting/auth',
    {
      schema: {
        body: channelAuthBody,
        response: { 200: z.object({ auth: z.string(), channel_data: z.string().optional() }), 403: messageAnswer },
      },
      config: { permission: 'signed-in' },
    },
    async (request, reply) => {
      const user = signedInUser(request, reply);
      if (!user) return reply;
      const { socket_id: socket, channel_name: channel } = request.body;
      const decision = await rules.decide(user, channel);
      if (!decision.allowed) return reply.code(403).send({ message: 'This action is unauthorized.' });
      if (channelKind(channel) !== 'presence') return { auth: signer.channel(socket, channel) };
      const channelData = JSON.stringify({ user_id: String(user.id), user_info: decision.memberInfo });
      return { auth: signer.channel(socket, channel, channelData), channel_data: channelData };
    },
  );

  app.post(
    '/broadcasting/user-auth',
    {
      schema: { body: userAuthBody, response: { 200: z.object({ auth: z.string(), user_data: z.string() }) } },
      config: { permission: 'signed-in' },
    },
    async (request, reply) => {
      const user = signedInUser(request, reply);
      if (!user) return reply;
      // pusher-js drops a sign-in whose id is not a string.
      const userData = JSON.stringify({ id: String(user.id), user_info: { name: user.name } });
      return { auth: signer.user(request.body.socket_id, userData), user_data: userData };
    },
  );
}

function signedInUser(request: FastifyRequest, reply: FastifyReply): AuthUser | null {
  // `?? null`: without the session plugin the request has no `user` at all.
  const user = request.user ?? null;
  if (!user) reply.code(401).send({ message: 'Unauthenticated.' });
  return user;
}
