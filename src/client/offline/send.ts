/**
 * Sends one outbox item through the app's HTTP client (CSRF, credentials) with its Idempotency-Key, and says what
 * came of it. No answer, a server error, a signed-out session or a rate limit leave the item waiting; a 409 fetches
 * the record as it is now, for the person to choose between theirs and their own.
 */
import type { HttpClient } from '../http/client';
import { isApiError } from '../http/errors';
import type { OutboxItem } from './database';
import type { Delivery } from './outbox';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header of a write sent under `key`: a quoted string, the IETF draft's form (the server takes it bare too). */
export const idempotencyHeaders = (key: string) => ({ [IDEMPOTENCY_HEADER]: `"${key}"` });

export const itemPath = (item: Pick<OutboxItem, 'resource' | 'kind' | 'id'>) =>
  `/api/${encodeURIComponent(item.resource)}${item.kind === 'update' ? `/${encodeURIComponent(String(item.id))}` : ''}`;

/** Answers that mean "try again later", not "the server will never take this". */
const LATER = new Set([401, 408, 419, 429]);

export async function sendItem(http: HttpClient, item: OutboxItem): Promise<Delivery> {
  try {
    const response = await http.post<{ data: Record<string, unknown> }>(itemPath(item), item.data, {
      headers: idempotencyHeaders(item.key),
      refreshSessionOnFailure: false,
    });
    return { outcome: 'sent', record: response.data.data };
  } catch (error) {
    if (!isApiError(error) || error.kind === 'network' || error.kind === 'timeout') return { outcome: 'offline' };
    if (LATER.has(error.status) || error.status >= 500) return { outcome: 'later' };
    if (error.status === 409 && item.kind === 'update') {
      const theirs = await http
        .get<{ data: Record<string, unknown> }>(itemPath(item), { refreshSessionOnFailure: false })
        .then(
          (response) => response.data.data,
          () => undefined,
        );
      return { outcome: 'conflict', message: error.message, theirs };
    }
    return { outcome: 'refused', message: error.message, errors: error.body?.errors };
  }
}
