/** A fake `fetch` for the provider tests: records each request and answers from a route table. */
export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  rawBody: BodyInit | null | undefined;
}

export type Answer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> } | Error;
export type Route = (request: RecordedRequest) => Answer | undefined;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Answer {
  return { status, body, headers };
}

export function createFakeFetch(routes: Route[] = []) {
  const requests: RecordedRequest[] = [];
  const cookies = new Map<string, string>();
  const table = [...routes];

  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const parsed = new URL(url, 'http://app.test');
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries((init.headers ?? {}) as Record<string, string>))
      headers[key.toLowerCase()] = value;
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers,
      body,
      rawBody: init.body,
    };
    requests.push(request);
    if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    if (request.path === '/sanctum/csrf-cookie') {
      cookies.set('XSRF-TOKEN', encodeURIComponent('token/with=chars'));
      return new Response(null, { status: 204 });
    }
    for (const route of table) {
      const answer = route(request);
      if (answer === undefined) continue;
      if (answer instanceof Error) throw answer;
      const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
      return new Response(answer.status === 204 ? null : text, {
        status: answer.status ?? 200,
        headers: answer.headers,
      });
    }
    return new Response(JSON.stringify({ message: 'Not Found' }), { status: 404 });
  }) as typeof fetch;

  return {
    fetch: fetchImpl,
    requests,
    cookies,
    getCookie: (name: string) => cookies.get(name),
    route: (route: Route) => table.unshift(route),
    last: () => requests[requests.length - 1]!,
    /** Requests other than the CSRF pre-flight. */
    api: () => requests.filter((request) => request.path !== '/sanctum/csrf-cookie'),
  };
}

export const when =
  (method: string, path: string | RegExp, answer: Answer | ((request: RecordedRequest) => Answer)): Route =>
  (request) => {
    if (request.method !== method) return undefined;
    if (typeof path === 'string' ? request.path !== path : !path.test(request.path)) return undefined;
    return typeof answer === 'function' ? answer(request) : answer;
  };
