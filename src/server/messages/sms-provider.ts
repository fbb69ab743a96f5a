import { createHmac, timingSafeEqual } from 'node:crypto';

/** A Twilio-compatible SMS endpoint (SMS_API_URL and its account, docs/messages.md). */
export interface SmsSettings {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
}

export class SmsRefused extends Error {
  constructor(
    message: string,
    /** Whether trying again later may help (the provider was busy or away), or never (a bad number). */
    readonly retry: boolean,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

/** Sends one text: `POST {apiUrl}/Accounts/{sid}/Messages.json` with To, From and Body; answers the provider's id. */
export async function sendSms(settings: SmsSettings, to: string, body: string): Promise<string> {
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: to, From: settings.from, Body: body }).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new SmsRefused(`The SMS provider did not answer: ${(error as Error).message}`, true);
  }
  const text = await response.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON: the status says enough */
  }
  if (!response.ok) {
    const reason = typeof answer.message === 'string' ? answer.message : `HTTP ${response.status}`;
    throw new SmsRefused(`The SMS provider refused it: ${reason}`, response.status === 429 || response.status >= 500);
  }
  return typeof answer.sid === 'string' ? answer.sid : '';
}

/**
 * Whether a request to the reply webhook comes from the provider: `X-Twilio-Signature` is the base64 HMAC-SHA1, keyed
 * with the auth token, of the full URL followed by each form parameter's name and value, sorted by name.
 */
export function signatureOf(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((all, key) => all + key + params[key], url);
  return createHmac('sha1', authToken).update(data).digest('base64');
}

export function isSignedByProvider(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signatureOf(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Words that, alone in a reply, mean "send me no more" (the carriers' standard ones). */
const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);

export const isStopReply = (body: string) =>
  STOP_WORDS.has(
    body
      .trim()
      .toLowerCase()
      .replace(/[.!]+$/, ''),
  );

/** A phone number as kept for opt-outs and matching replies: digits with a leading + (US numbers given 10 digits get +1). */
export function normalisePhone(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (!digits) return '';
  if (phone.trim().startsWith('+')) return `+${digits}`;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return `+${digits}`;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
