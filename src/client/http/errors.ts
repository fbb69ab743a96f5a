/**
 * The client error kinds of SPEC section 8 (network error, timeout, bad request, bad response, cancelled).
 *
 * `ApiError` has the shape react-admin duck-types for HTTP errors: `message`, `status` and an own `body`
 * property. For a 422 the body's `errors` holds ONE string per field (Laravel sends `{field: [messages]}`),
 * which is what react-admin's forms put on the fields in pessimistic mutation mode.
 */
export type ErrorKind = 'network' | 'timeout' | 'bad-request' | 'bad-response' | 'cancelled';

export interface ApiErrorBody {
  message?: string;
  /** One message per field (flattened from Laravel's `{field: [messages]}`). */
  errors?: Record<string, string>;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly kind: ErrorKind;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly body: ApiErrorBody | undefined;
  /** Seconds to wait, from `Retry-After` on a 429. */
  readonly retryAfter: number | undefined;

  constructor(kind: ErrorKind, message: string, status = 0, body?: ApiErrorBody, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** Laravel's `{field: [messages]}` -> `{field: 'first message'}` (strings are kept; empty lists dropped). */
export function flattenValidationErrors(errors: unknown): Record<string, string> {
  const flat: Record<string, string> = {};
  if (!errors || typeof errors !== 'object') return flat;
  for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
    if (Array.isArray(value)) {
      const first = value.find((item) => typeof item === 'string' && item.length > 0);
      if (typeof first === 'string') flat[field] = first;
    } else if (typeof value === 'string' && value.length > 0) {
      flat[field] = value;
    }
  }
  return flat;
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'The request was not accepted by the server.',
  401: 'You are signed out. Please sign in again.',
  403: 'You are not allowed to do this.',
  404: 'The requested item could not be found.',
  405: 'This action is not available.',
  409: 'Someone else changed this record. Reload it and try again.',
  413: 'The upload is too large.',
  419: 'Your page expired. Refresh the page and try again.',
  422: 'Some of the information is not valid.',
  429: 'Too many attempts. Please wait and try again.',
};

export const KIND_MESSAGES: Record<ErrorKind, string> = {
  network: 'Network error: the server could not be reached. Check your connection and try again.',
  timeout: 'The server took too long to answer. Please try again.',
  'bad-request': 'The request was not accepted by the server.',
  'bad-response': 'The server could not complete the request. Please try again later.',
  cancelled: 'The request was cancelled.',
};

/** Build the error for an HTTP answer outside 2xx. */
export function errorFromResponse(status: number, payload: unknown, retryAfterHeader?: string | null): ApiError {
  const raw = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const serverMessage = typeof raw.message === 'string' && raw.message.trim() ? raw.message.trim() : undefined;
  const retryAfter =
    retryAfterHeader != null && retryAfterHeader !== '' && !Number.isNaN(Number(retryAfterHeader))
      ? Number(retryAfterHeader)
      : undefined;
  if (status >= 500) {
    const reference = typeof raw.request_id === 'string' ? ` (reference ${raw.request_id})` : '';
    const message = `${KIND_MESSAGES['bad-response']}${reference}`;
    return new ApiError('bad-response', message, status, { ...raw, message });
  }
  const body: ApiErrorBody = { ...raw };
  if (status === 422) {
    body.errors = flattenValidationErrors(raw.errors);
  }
  const message = serverMessage ?? STATUS_MESSAGES[status] ?? `${KIND_MESSAGES['bad-request']} (status ${status})`;
  body.message = message;
  return new ApiError('bad-request', message, status, body, retryAfter);
}
