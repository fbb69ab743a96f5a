/** Texts and emails to the people of a list, as the API answers them (src/server/messages, docs/messages.md). */

export type MessageChannel = 'sms' | 'email';
export type MessagePersonType = 'contact' | 'recruit' | 'member';

/**
 * Where one person's copy is: `queued` (waiting for the rate or the end of quiet hours), `sending`, `sent`, `failed`
 * (the provider refused it after retries), `opted_out` (they asked for no more), `no_address` (no phone or email),
 * `not_sent` (no provider is configured: kept, sent again with "Send the unsent"), `received` (a reply).
 */
export type MessageStatus =
  | 'queued'
  | 'sending'
  | 'sent'
  | 'failed'
  | 'opted_out'
  | 'no_address'
  | 'not_sent'
  | 'received';

export interface MessageSend {
  id: number;
  channel: MessageChannel;
  person_type: MessagePersonType;
  query: Record<string, unknown>;
  subject: string | null;
  body: string;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  /** People's copies by status. */
  counts: Partial<Record<MessageStatus, number>>;
  total: number;
}

export interface Message {
  id: number;
  send_id: number | null;
  channel: MessageChannel;
  direction: 'out' | 'in';
  person_type: MessagePersonType | null;
  person_id: number | null;
  address: string;
  subject: string | null;
  body: string;
  status: MessageStatus;
  detail: string | null;
  created_at: string;
  sent_at: string | null;
}

export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: 'Waiting to send',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  opted_out: 'Opted out',
  no_address: 'No address',
  not_sent: 'Not sent: no provider configured',
  received: 'Reply',
};

/** The longest text body: ten SMS segments. */
export const MAX_SMS_LENGTH = 1_600;
export const MAX_EMAIL_LENGTH = 20_000;
