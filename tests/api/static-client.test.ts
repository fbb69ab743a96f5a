import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { precompressFolder } from '../../src/build/precompress.js';
import { registerStaticClient } from '../../src/server/system/static-client.js';
import { startTestApp } from '../support/test-app.js';

/**
 * Page weight (issue 19): the built client is sent compressed when the browser accepts it, hashed assets are
 * cached for good and index.html is revalidated on every load. A client folder made here, precompressed the
 * way the build does it, so the test does not depend on a build having run.
 */
let root: string;
let app: FastifyInstance;
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
const page = `<!doctype html><html><head><title>The organizing map</title></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'static-client-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), page);
  writeFileSync(path.join(root, 'assets', 'index-AbC123.js'), script);
  writeFileSync(path.join(root, 'assets', 'tiny-AbC123.js'), 'export {};\n');
  expect(await precompressFolder(root)).toBe(2);
  app = Fastify();
  await registerStaticClient(app, root);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the built client on the wire', () => {
  it('sends brotli when the browser accepts it, with the type of the file and Vary', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(script.length / 3);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a browser that accepts only gzip', async () => {
    const res = await get('/assets/index-AbC123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the plain file to a client that accepts no encoding, still varying on it', async () => {
    const res = await get('/assets/index-AbC123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.body).toBe(script);
  });

  it('leaves files too small to gain from compression as they are', async () => {
    const res = await get('/assets/tiny-AbC123.js', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};\n');
  });

  it('caches hashed assets as immutable for a year', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const res = await get('/assets/index-AbC123.js', encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('never caches index.html, asked for by name or as a client route, compressed as well', async () => {
    for (const url of ['/', '/index.html', '/sites/12', '/map']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(page);
    }
    const plain = await get('/sites/12');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(readFileSync(path.join(root, 'index.html'), 'utf8'));
  });

  it('answers a revalidation of an asset with 304, a HEAD with its headers, and honours a refused encoding', async () => {
    const first = await get('/assets/index-AbC123.js', 'br');
    const again = await app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const head = await app.inject({
      method: 'HEAD',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
    const refused = await get('/assets/index-AbC123.js', 'br;q=0, gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('serves an asset written after the server started (a rebuild), and nothing outside the assets', async () => {
    writeFileSync(path.join(root, 'assets', 'later-AbC123.js'), 'export const later = 1;\n');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await get('/assets/later-AbC123.js', 'br');
    expect(later.statusCode).toBe(200);
    expect(later.body).toBe('export const later = 1;\n');
    for (const url of ['/assets/..%2findex.html', '/assets/.hidden.js', '/assets/index-AbC123.js.br']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('keeps the JSON 404 for unknown server paths and missing files', async () => {
    for (const url of ['/api/nothing-here', '/assets/missing-AbC123.js']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message, url).toMatch(/No route/);
    }
  });
});

describe('the hashed assets in the whole app', () => {
  it('are answered without reading the session, which the pages and the API still read', async () => {
    const t = await startTestApp();
    try {
      const admin = await t.admin();
      const resume = vi.spyOn(t.ctx.sessions, 'resume');
      const asset = await admin.get('/assets/index-AbC123.js');
      expect(asset.status).toBe(404);
      expect(resume).not.toHaveBeenCalled();
      expect((await admin.get('/api/auth/check')).status).toBe(200);
      expect(resume).toHaveBeenCalledTimes(1);
    } finally {
      await t.close();
    }
  });
});
