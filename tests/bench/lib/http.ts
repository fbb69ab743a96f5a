import http from 'node:http';

export interface SimpleResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface SimpleRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: http.Agent | false;
  timeoutMs?: number;
}

/** One HTTP request to the server under test (always 127.0.0.1); resolves with the whole body as text. */
export function request(url: string, options: SimpleRequest = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          accept: 'application/json',
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`Timed out after ${options.timeoutMs ?? 10_000} ms: ${options.method ?? 'GET'} ${url}`)),
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The cookies a response sets, by name (attributes dropped). */
export function setCookies(response: SimpleResponse): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of response.headers['set-cookie'] ?? []) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return jar;
}

export const cookieHeader = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/** The token a write sends back in X-XSRF-TOKEN, read from the Cookie header `signIn` returns. */
export const xsrfOf = (cookie: string) => decodeURIComponent(/(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '');

/**
 * Signs in as the SPA does: GET /sanctum/csrf-cookie, then POST /api/auth/login with the XSRF-TOKEN cookie
 * echoed in X-XSRF-TOKEN. Returns the Cookie header to send with later requests (session + XSRF cookies).
 */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await request(`${baseUrl}/sanctum/csrf-cookie`);
  if (csrf.status !== 204 && csrf.status !== 200)
    throw new Error(`GET /sanctum/csrf-cookie answered ${csrf.status}: ${csrf.body.slice(0, 300)}`);
  const jar = setCookies(csrf);
  const token = jar.get('XSRF-TOKEN');
  if (!token) throw new Error('GET /sanctum/csrf-cookie set no XSRF-TOKEN cookie');
  const login = await request(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookieHeader(jar),
      'x-xsrf-token': decodeURIComponent(token),
    },
    body: JSON.stringify({ email, password }),
    // The password's hash takes its own CPU: on a machine shared by many, well past the usual 10 s.
    timeoutMs: 60_000,
  });
  if (login.status !== 200)
    throw new Error(`POST /api/auth/login answered ${login.status}: ${login.body.slice(0, 300)}`);
  for (const [name, value] of setCookies(login)) jar.set(name, value);
  return cookieHeader(jar);
}
