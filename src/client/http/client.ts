/**
 * The one HTTP client of the app (SPEC section 7): JSON-accept and ajax headers, credentials, the CSRF
 * pre-flight before unsafe methods, and the client error kinds of SPEC section 8. No default timeout and
 * no size limit (SPEC section 9); a caller may pass `timeout`.
 */
import { ApiError, errorFromResponse, KIND_MESSAGES } from './errors';
import { type Query, withQuery } from './query';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Milliseconds; none by default. */
  timeout?: number;
  headers?: Record<string, string>;
  /** Set false for the session check itself, so a failure does not trigger another check. */
  refreshSessionOnFailure?: boolean;
}

export interface HttpResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

export interface HttpClientDeps {
  fetch?: typeof fetch;
  /** Reads a cookie at call time (document.cookie in the browser). */
  getCookie?: (name: string) => string | undefined;
  baseUrl?: string;
}

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';
export const CSRF_PATH = '/sanctum/csrf-cookie';
const UNSAFE = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

export function readBrowserCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export class HttpClient {
  private readonly fetchImpl: typeof fetch;
  private readonly getCookie: (name: string) => string | undefined;
  private readonly baseUrl: string;
  private csrfPending: Promise<void> | null = null;
  private failureListeners = new Set<(error: ApiError) => void>();
  private socketIdProvider: () => string | undefined = () => undefined;

  constructor(deps: HttpClientDeps = {}) {
    this.fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.getCookie = deps.getCookie ?? readBrowserCookie;
    this.baseUrl = deps.baseUrl ?? '';
  }

  /** Called (after the error is built, before it is thrown) for every answer outside 2xx. */
  onFailedResponse(listener: (error: ApiError) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** The realtime socket id, sent as X-Socket-Id so the server can skip echoing to this tab. */
  setSocketIdProvider(provider: () => string | undefined): void {
    this.socketIdProvider = provider;
  }

  csrfToken(): string | undefined {
    const raw = this.getCookie(CSRF_COOKIE);
    if (!raw) return undefined;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }

  /** GET the CSRF cookie when it is missing (or when forced); concurrent callers share one request. */
  async ensureCsrfCookie(force = false): Promise<void> {
    if (!force && this.csrfToken()) return;
    if (!this.csrfPending) {
      this.csrfPending = this.send('GET', CSRF_PATH, { refreshSessionOnFailure: false })
        .then(() => undefined)
        .finally(() => {
          this.csrfPending = null;
        });
    }
    return this.csrfPending;
  }

  get<T = unknown>(path: string, options: RequestOptions = {}) {
    return this.request<T>('GET', path, options);
  }
  post<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = unknown>(path: string, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, options);
  }

  async request<T = unknown>(method: Method, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    if (UNSAFE.has(method)) await this.ensureCsrfCookie();
    try {
      return await this.send<T>(method, path, options);
    } catch (error) {
      // A 419 means the token rotated (or expired with the session): fetch a fresh one and retry once.
      if (error instanceof ApiError && error.status === 419 && UNSAFE.has(method)) {
        await this.ensureCsrfCookie(true);
        return this.send<T>(method, path, options);
      }
      throw error;
    }
  }

  private async send<T>(method: Method, path: string, options: RequestOptions): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...options.headers,
    };
    let body: BodyInit | undefined;
    if (options.body !== undefined && options.body !== null) {
      if (isFormData(options.body)) {
        body = options.body;
      } else {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
    }
    if (UNSAFE.has(method)) {
      const token = this.csrfToken();
      if (token) headers[CSRF_HEADER] = token;
    }
    const socketId = this.socketIdProvider();
    if (socketId) headers['X-Socket-Id'] = socketId;

    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const callerSignal = options.signal;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal) {
      if (callerSignal.aborted) throw new ApiError('cancelled', KIND_MESSAGES.cancelled);
      callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    }
    if (options.timeout && options.timeout > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeout);
    }

    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(this.baseUrl + withQuery(path, options.query), {
        method,
        headers,
        body,
        credentials: 'include',
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      if (timedOut) throw new ApiError('timeout', KIND_MESSAGES.timeout);
      if (controller.signal.aborted || isAbortError(cause)) throw new ApiError('cancelled', KIND_MESSAGES.cancelled);
      throw new ApiError('network', KIND_MESSAGES.network);
    } finally {
      if (timer) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }

    let payload: unknown = null;
    let parsed = true;
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }

    if (response.status >= 200 && response.status < 300) {
      if (!parsed)
        throw new ApiError('bad-response', 'The server sent an answer the app could not read.', response.status);
      return { status: response.status, data: payload as T, headers: response.headers };
    }

    const error = errorFromResponse(response.status, parsed ? payload : null, response.headers.get('Retry-After'));
    if (options.refreshSessionOnFailure !== false) {
      for (const listener of this.failureListeners) {
        try {
          listener(error);
        } catch (listenerError) {
          console.error(listenerError);
        }
      }
    }
    throw error;
  }
}

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'AbortError';
}
