import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../src/server/system/security-headers.js';

describe('sourceOf (CSP sources from settings)', () => {
  it('is the origin of a tile template, with {s} subdomains as a wildcard', () => {
    expect(sourceOf('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(sourceOf('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(sourceOf('https://tiles.example.com:8443/styles/{z}/{x}/{y}{r}.png?key=abc')).toBe(
      'https://tiles.example.com:8443',
    );
    expect(sourceOf('http://10.0.0.5/tiles/{z}/{x}/{y}.png')).toBe('http://10.0.0.5');
  });

  it('is self for a path on this server, and nothing when unset or not http(s)', () => {
    expect(sourceOf('/logo.svg')).toBe("'self'");
    expect(sourceOf('')).toBeNull();
    expect(sourceOf(undefined)).toBeNull();
    expect(sourceOf('javascript:alert(1)')).toBeNull();
    expect(sourceOf('data:image/png;base64,AAAA')).toBeNull();
    expect(sourceOf('//evil.example.com/x.png')).toBeNull();
  });
});
