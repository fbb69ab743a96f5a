/**
 * A list opened by its address asks for the view it opens in before the list is drawn (records/prefetchList.ts), under
 * the key the list reads (views/useDefaultView.ts); other pages, and a list whose address names a view, do not.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/client/http/client';
import { createDataProvider } from '../../../src/client/providers/dataProvider';
import { prefetchOpenedList } from '../../../src/client/records/prefetchList';
import { setRecordTypes } from '../../../src/client/resources/names';
import { createFakeFetch, json, when } from './fakeFetch';

const TYPES = [{ type: 'site', resource: 'sites' }];
const answer = { view: { id: 7, name: 'Start here' }, source: 'role' };

function open(pathname: string, search = '') {
  const fake = createFakeFetch([when('GET', '/api/views/default', json({ data: answer }))]);
  const provider = createDataProvider(new HttpClient({ fetch: fake.fetch, getCookie: fake.getCookie }));
  const client = new QueryClient();
  setRecordTypes(TYPES);
  prefetchOpenedList({ pathname, search }, TYPES, client, provider);
  return { fake, client };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a list opened by its address', () => {
  it("asks for the type's default view at once, kept where the list reads it", async () => {
    const { fake, client } = open('/sites', '?layout=kanban&by=stage');
    await settled();
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /api/views/default']);
    expect(fake.requests[0].query.get('record_type')).toBe('site');
    expect(client.getQueryData(['views', 'default', 'site'])).toEqual(answer);
  });

  it('asks nothing for a list whose address names a view, for a record page or for what is not a record type', async () => {
    for (const [pathname, search] of [
      ['/sites', '?view=3'],
      ['/sites/12/show', ''],
      ['/sites/create', ''],
      ['/roles', ''],
      ['/', ''],
    ]) {
      const { fake } = open(pathname, search);
      await settled();
      expect(fake.requests, `${pathname}${search}`).toEqual([]);
    }
  });
});
