import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/client/http/client';
import { ApiError, flattenValidationErrors } from '../../../src/client/http/errors';
import { buildQueryString } from '../../../src/client/http/query';
import { createFakeFetch, json, when } from './fakeFetch';

const make = (fake: ReturnType<typeof createFakeFetch>) =>
  new HttpClient({ fetch: fake.fetch, getCookie: fake.getCookie });

describe('http client', () => {
  it('sends JSON-accept and ajax headers with credentials', async () => {
    const fake = createFakeFetch([when('GET', '/api/things', json({ data: [] }))]);
    let init: RequestInit | undefined;
    const http = new HttpClient({
      fetch: (input, options) => ((init = options), fake.fetch(input, options)),
      getCookie: fake.getCookie,
    });
    await http.get('/api/things');
    expect(fake.last().headers.accept).toBe('application/json');
    expect(fake.last().headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(init?.credentials).toBe('include');
  });

  it('fetches the CSRF cookie before the first unsafe request and echoes it decoded', async () => {
    const fake = createFakeFetch([when('POST', '/api/things', json({ data: { id: 1 } }, 201))]);
    const http = make(fake);
    await http.post('/api/things', { name: 'a' });
    await http.post('/api/things', { name: 'b' });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /sanctum/csrf-cookie',
      'POST /api/things',
      'POST /api/things',
    ]);
    expect(fake.last().headers['x-xsrf-token']).toBe('token/with=chars');
    expect(fake.last().headers['content-type']).toBe('application/json');
    expect(fake.last().body).toEqual({ name: 'b' });
  });

  it('does not pre-flight GET requests', async () => {
    const fake = createFakeFetch([when('GET', '/api/things', json({ data: [] }))]);
    await make(fake).get('/api/things');
    expect(fake.requests).toHaveLength(1);
    expect(fake.last().headers['x-xsrf-token']).toBeUndefined();
  });

  it('shares one pre-flight between concurrent unsafe requests', async () => {
    const fake = createFakeFetch([when('DELETE', /\/api\/things\/\d+/, json({ data: {} }))]);
    const http = make(fake);
    await Promise.all([http.delete('/api/things/1'), http.delete('/api/things/2')]);
    expect(fake.requests.filter((r) => r.path === '/sanctum/csrf-cookie')).toHaveLength(1);
  });

  it('retries once with a fresh token after a 419', async () => {
    let calls = 0;
    const fake = createFakeFetch([
      when('POST', '/api/things', () =>
        ++calls === 1 ? json({ message: 'CSRF token mismatch.' }, 419) : json({ data: { id: 2 } }),
      ),
    ]);
    fake.cookies.set('XSRF-TOKEN', 'stale');
    const response = await make(fake).post<{ data: { id: number } }>('/api/things', {});
    expect(response.data.data.id).toBe(2);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/things',
      'GET /sanctum/csrf-cookie',
      'POST /api/things',
    ]);
  });

  it('sends FormData as multipart without a JSON content type', async () => {
    const fake = createFakeFetch([when('POST', '/api/attachments', json({ data: { id: 1 } }))]);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    await make(fake).post('/api/attachments', form);
    expect(fake.last().rawBody).toBe(form);
    expect(fake.last().headers['content-type']).toBeUndefined();
  });

  describe('error kinds', () => {
    it('network error when fetch rejects', async () => {
      const fake = createFakeFetch([() => new TypeError('Failed to fetch')]);
      const error = await make(fake)
        .get('/api/x')
        .catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.kind).toBe('network');
      expect(error.status).toBe(0);
      expect(error.message).toMatch(/could not be reached/);
    });

    it('timeout when the caller timeout passes', async () => {
      const slow = ((_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          ),
        )) as typeof fetch;
      const http = new HttpClient({ fetch: slow, getCookie: () => undefined });
      const error = await http.get('/api/slow', { timeout: 20 }).catch((e) => e);
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/too long/);
    });

    it('cancelled when the caller aborts', async () => {
      const slow = ((_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          ),
        )) as typeof fetch;
      const http = new HttpClient({ fetch: slow, getCookie: () => undefined });
      const controller = new AbortController();
      const pending = http.get('/api/slow', { signal: controller.signal }).catch((e) => e);
      controller.abort();
      const error = await pending;
      expect(error.kind).toBe('cancelled');
      const already = await http.get('/api/slow', { signal: controller.signal }).catch((e) => e);
      expect(already.kind).toBe('cancelled');
    });

    it('bad request for 4xx, with the server message', async () => {
      const fake = createFakeFetch([when('GET', '/api/x', json({ message: 'This action is unauthorized.' }, 403))]);
      const error = await make(fake)
        .get('/api/x')
        .catch((e) => e);
      expect(error.kind).toBe('bad-request');
      expect(error.status).toBe(403);
      expect(error.message).toBe('This action is unauthorized.');
    });

    it('bad request for 4xx without a body gets a plain message', async () => {
      const fake = createFakeFetch([when('GET', '/api/x', { status: 404, text: '' })]);
      const error = await make(fake)
        .get('/api/x')
        .catch((e) => e);
      expect(error.kind).toBe('bad-request');
      expect(error.message).toBe('The requested item could not be found.');
    });

    it('422 flattens field errors to one string per field', async () => {
      const fake = createFakeFetch([
        when(
          'POST',
          '/api/users',
          json(
            {
              message: 'The email has already been taken.',
              errors: { email: ['The email has already been taken.', 'Other'], name: [] },
            },
            422,
          ),
        ),
      ]);
      const error = await make(fake)
        .post('/api/users', {})
        .catch((e) => e);
      expect(error.kind).toBe('bad-request');
      expect(error.status).toBe(422);
      expect(error.body.errors).toEqual({ email: 'The email has already been taken.' });
      expect(error.message).toBe('The email has already been taken.');
      expect(Object.hasOwn(error, 'body')).toBe(true);
    });

    it('429 keeps Retry-After', async () => {
      const fake = createFakeFetch([
        when('POST', '/api/auth/login', json({ message: 'Too many login attempts.' }, 429, { 'Retry-After': '42' })),
      ]);
      const error = await make(fake)
        .post('/api/auth/login', {})
        .catch((e) => e);
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBe(42);
    });

    it('bad response for 5xx, naming the request id', async () => {
      const fake = createFakeFetch([
        when('GET', '/api/x', json({ message: 'Server Error', request_id: 'abc123' }, 500)),
      ]);
      const error = await make(fake)
        .get('/api/x')
        .catch((e) => e);
      expect(error.kind).toBe('bad-response');
      expect(error.status).toBe(500);
      expect(error.message).toMatch(/could not complete the request.*abc123/);
    });

    it('bad response for an unreadable 2xx answer', async () => {
      const fake = createFakeFetch([when('GET', '/api/x', { status: 200, text: '<html>' })]);
      const error = await make(fake)
        .get('/api/x')
        .catch((e) => e);
      expect(error.kind).toBe('bad-response');
    });
  });

  it('tells failure listeners about every failed response unless asked not to', async () => {
    const fake = createFakeFetch([when('GET', '/api/x', json({ message: 'no' }, 401))]);
    const http = make(fake);
    const seen: number[] = [];
    http.onFailedResponse((error) => seen.push(error.status));
    await http.get('/api/x').catch(() => undefined);
    await http.get('/api/x', { refreshSessionOnFailure: false }).catch(() => undefined);
    expect(seen).toEqual([401]);
  });

  it('adds X-Socket-Id when the realtime socket is connected', async () => {
    const fake = createFakeFetch([when('GET', '/api/x', json({}))]);
    const http = make(fake);
    http.setSocketIdProvider(() => '123.456');
    await http.get('/api/x');
    expect(fake.last().headers['x-socket-id']).toBe('123.456');
  });
});

describe('query strings', () => {
  it('encodes scalars, arrays, objects and skips empty values', () => {
    const qs = buildQueryString({
      page: 2,
      search: 'a b',
      with_trashed: true,
      ids: [1, 2],
      filter: { type: 'union' },
      empty: {},
      none: undefined,
      nil: null,
      team_id: '',
    });
    const params = new URLSearchParams(qs.slice(1));
    expect(params.get('page')).toBe('2');
    expect(params.get('search')).toBe('a b');
    expect(params.get('with_trashed')).toBe('1');
    expect(params.getAll('ids[]')).toEqual(['1', '2']);
    expect(JSON.parse(params.get('filter')!)).toEqual({ type: 'union' });
    expect(params.has('empty')).toBe(false);
    expect(params.has('none')).toBe(false);
    expect(params.has('nil')).toBe(false);
    expect(params.has('team_id')).toBe(false);
  });

  it('flattens Laravel validation errors', () => {
    expect(flattenValidationErrors({ a: ['x', 'y'], b: 'z', c: [] })).toEqual({ a: 'x', b: 'z' });
    expect(flattenValidationErrors(null)).toEqual({});
  });
});
