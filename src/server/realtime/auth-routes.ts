import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth-user.js';
import type { ChannelRules } from './channel-rules.js';
import { CHANNEL_NAME_MAX_LENGTH, CHANNEL_NAME_PATTERN, channelKind, SOCKET_ID_PATTERN } from './protocol.js';
import type { Signer } from './signing.js';

type Errors = Record<string, string[]>;

/**
 * The endpoints pusher-js calls (form-encoded, as in the browser) before joining a private or presence
 * channel and before `pusher:signin`. They answer with signatures the hub checks, so the hub itself never
 * needs to know about sessions.
 */
export function registerAuthRoutes(app: FastifyInstance, signer: Signer, rules: ChannelRules): void {
  app.post('/broadcasting/auth', { config: { permission: 'signed-in' } }, async (request, reply) => {
    const user = signedInUser(request, reply);
    if (!user) return reply;
    const { socket_id: socketId, channel_name: channel } = fields(request.body);
    const errors: Errors = { ...checkSocketId(socketId), ...checkChannelName(channel) };
    if (invalid(reply, errors)) return reply;

    const decision = await rules.decide(user, channel as string);
    if (!decision.allowed) return reply.code(403).send({ message: 'This action is unauthorized.' });
    if (channelKind(channel as string) !== 'presence')
      return { auth: signer.channel(socketId as string, channel as string) };
    const channelData = JSON.stringify({ user_id: String(user.id), user_info: decision.memberInfo });
    return { auth: signer.channel(socketId as string, channel as string, channelData), channel_data: channelData };
  });

  app.post('/broadcasting/user-auth', { config: { permission: 'signed-in' } }, async (request, reply) => {
    const user = signedInUser(request, reply);
    if (!user) return reply;
    const { socket_id: socketId } = fields(request.body);
    if (invalid(reply, checkSocketId(socketId))) return reply;
    // pusher-js drops a sign-in whose id is not a string.
    const userData = JSON.stringify({ id: String(user.id), user_info: { name: user.name } });
    return { auth: signer.user(socketId as string, userData), user_data: userData };
  });
}

function signedInUser(request: FastifyRequest, reply: FastifyReply): AuthUser | null {
  // `?? null`: without the session plugin the request has no `user` at all.
  const user = request.user ?? null;
  if (!user) reply.code(401).send({ message: 'Unauthenticated.' });
  return user;
}

function fields(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function checkSocketId(value: unknown): Errors {
  if (value === undefined || value === null || value === '') return { socket_id: ['The socket id field is required.'] };
  if (typeof value !== 'string' || !SOCKET_ID_PATTERN.test(value))
    return { socket_id: ['The socket id field format is invalid.'] };
  return {};
}

function checkChannelName(value: unknown): Errors {
  const problem =
    value === undefined || value === null || value === ''
      ? 'The channel name field is required.'
      : typeof value !== 'string' || !CHANNEL_NAME_PATTERN.test(value)
        ? 'The channel name field format is invalid.'
        : value.length > CHANNEL_NAME_MAX_LENGTH
          ? `The channel name field must not be greater than ${CHANNEL_NAME_MAX_LENGTH} characters.`
          : !['private', 'presence'].includes(channelKind(value))
            ? 'The channel name must start with private- or presence-; public channels need no authorisation.'
            : null;
  return problem ? { channel_name: [problem] } : {};
}

/** Laravel's 422 shape: the first message, and how many more there are. */
function invalid(reply: FastifyReply, errors: Errors): boolean {
  const messages = Object.values(errors).flat();
  if (messages.length === 0) return false;
  const more = messages.length - 1;
  const message = more === 0 ? messages[0] : `${messages[0]} (and ${more} more error${more === 1 ? '' : 's'})`;
  reply.code(422).send({ message, errors });
  return true;
}
