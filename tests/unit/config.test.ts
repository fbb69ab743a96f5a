import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/config.js';

/** The settings of issue 28 point 4 and 6c: APP_URL, TRUST_PROXY and the sign-in throttle (docs/settings.md). */
describe('APP_URL', () => {
  it('defaults to http://localhost:PORT, the one-machine case', () => {
    expect(loadConfig({ PORT: '8123' })).toMatchObject({ appUrl: 'http://localhost:8123', appUrlSet: false });
  });

  it('is kept as an origin', () => {
    expect(loadConfig({ APP_URL: 'https://Map.Example.org/' })).toMatchObject({
      appUrl: 'https://map.example.org',
      appUrlSet: true,
    });
    expect(loadConfig({ APP_URL: 'http://10.0.0.5:8000' }).appUrl).toBe('http://10.0.0.5:8000');
  });

  it('refuses what is not the address people open: other schemes, paths, queries, credentials', () => {
    for (const bad of [
      'map.example.org',
      'javascript:alert(1)',
      'ftp://map.example.org',
      'https://map.example.org/app',
      'https://map.example.org/?x=1',
      'https://user:pass@map.example.org',
      'https://map.example.org;script-src *',
    ])
      expect(() => loadConfig({ APP_URL: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ APP_URL: 'https://map.example.org/app' })).toThrow(/APP_URL: use the address people/);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default, on with 1, or the proxies named', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});

describe('the sign-in throttle', () => {
  it('has a per-account limit, a looser per-address one, and a lockout no lower than it', () => {
    expect(loadConfig({}).throttle).toEqual({
      maxAttempts: 5,
      maxAttemptsPerAddress: 20,
      addressLockoutAttempts: 200,
      decaySeconds: 60,
    });
    expect(
      loadConfig({ LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '50', LOGIN_ADDRESS_LOCKOUT_ATTEMPTS: '10' }).throttle
        .addressLockoutAttempts,
    ).toBe(50);
  });
});
