/** The public page's few requests: same origin, the CSRF cookie echoed in its header as the app's client does. */

// The server's CSRF names (auth/csrf.ts). Not imported from the app's http/client: anything the public page shares
// with the app's first page would be built into the app's chunk, which the public page would then load whole.
const CSRF_COOKIE = 'XSRF-TOKEN';
const CSRF_HEADER = 'X-XSRF-TOKEN';
const CSRF_PATH = '/sanctum/csrf-cookie';

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
