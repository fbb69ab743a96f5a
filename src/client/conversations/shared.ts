/** What the conversation screens share: how a conversation is had, whom it is with, where it was logged from. */

export const CHANNELS = [
  { id: 'call', name: 'Call' },
  { id: 'text', name: 'Text' },
  { id: 'email', name: 'Email' },
  { id: 'visit', name: 'Visit' },
  { id: 'meeting', name: 'Meeting' },
] as const;
export type Channel = (typeof CHANNELS)[number]['id'];

export const channelName = (id: unknown) => CHANNELS.find((choice) => choice.id === id)?.name ?? 'Conversation';

export const PERSON_TYPES = ['contact', 'recruit', 'member'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];
export const isPersonType = (value: unknown): value is PersonType =>
  typeof value === 'string' && (PERSON_TYPES as readonly string[]).includes(value);

/** The field of a conversation naming a person of this type. */
export const personField = (type: PersonType) => `${type}_id`;

export interface PersonRef {
  type: PersonType;
  id: number;
  name?: string;
}

/** Where a conversation is logged from: the site, the task it completes, a call list; and how it is had there. */
export interface ConversationContext {
  channel?: Channel;
  site_id?: number;
  task_id?: number;
  /** More fields of the conversation (a call list's id). */
  extra?: Record<string, unknown>;
}
