import { CSRF_COOKIE, CSRF_HEADER, CSRF_PATH } from '../http/client';

/** The public page's few requests: same origin, the CSRF cookie echoed in its header as the app's client does. */

export interface Answer<T> {
  status: number;
  body: T & { message?: string; errors?: Record<string, string[]> };
}

function csrfToken(): string {
  const cookie = document.cookie.split('; ').find((part) => part.startsWith(`${CSRF_COOKIE}=`));
  return cookie ? decodeURIComponent(cookie.slice(CSRF_COOKIE.length + 1)) : '';
}

async function readAnswer<T>(response: Response): Promise<Answer<T>> {
  const body = response.headers.get('content-type')?.includes('json') ? await response.json() : {};
  return { status: response.status, body };
}

export async function getJson<T>(url: string): Promise<Answer<T>> {
  return readAnswer<T>(await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
}

export async function postJson<T>(url: string, data: unknown): Promise<Answer<T>> {
  if (!csrfToken()) await fetch(CSRF_PATH, { credentials: 'same-origin' });
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', [CSRF_HEADER]: csrfToken() },
    body: JSON.stringify(data),
  });
  return readAnswer<T>(response);
}
