import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../src/server/http/query-string';

describe('the query-string parser', () => {
  it('leaves out empty parameters: an empty filter is no filter', () => {
    expect(parseQueryString('team_id=&region_id=&from=2025-03-01')).toEqual({ from: '2025-03-01' });
  });
  it('decodes values, gives repeated names as an array and ignores __proto__', () => {
    const query = parseQueryString('q=a+b%26c&id=1&id=2&__proto__=x');
    expect(query).toEqual({ q: 'a b&c', id: ['1', '2'] });
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
  });
});
