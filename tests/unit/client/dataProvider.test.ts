import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/client/http/client';
import { createDataProvider, listQuery, toFormData } from '../../../src/client/providers/dataProvider';
import { createFakeFetch, json, when } from './fakeFetch';

const setup = (...routes: NonNullable<Parameters<typeof createFakeFetch>[0]>) => {
  const fake = createFakeFetch(routes);
  const http = new HttpClient({ fetch: fake.fetch, getCookie: fake.getCookie });
  return { fake, provider: createDataProvider(http) };
};
const filterOf = (query: URLSearchParams) => JSON.parse(query.get('filter') ?? '{}');

describe('dataProvider mapping', () => {
  it('getList -> GET /api/{r} with page, per_page, sort, order, search and filter', async () => {
    const { fake, provider } = setup(
      when(
        'GET',
        '/api/users',
        json({
          data: [{ id: 1 }, { id: 2 }],
          meta: { current_page: 2, from: 26, to: 27, per_page: 25, total: 27, last_page: 2 },
        }),
      ),
    );
    const result = await provider.getList('users', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'last_name', order: 'DESC' },
      filter: { q: ' ada ', role_id: 3 },
    });
    const request = fake.last();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/users');
    expect(request.query.get('page')).toBe('2');
    expect(request.query.get('per_page')).toBe('25');
    expect(request.query.get('sort')).toBe('last_name');
    expect(request.query.get('order')).toBe('desc');
    expect(request.query.get('search')).toBe('ada');
    expect(filterOf(request.query)).toEqual({ role_id: 3 });
    expect(result.data).toEqual([{ id: 1 }, { id: 2 }]);
    expect(result.total).toBe(27);
    expect(result.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('getList sends the cursor the page before answered with, for that list and page only', async () => {
    const { fake, provider } = setup(
      when('GET', '/api/sites', (request) =>
        json({
          data: [{ id: 1 }],
          meta: {
            current_page: Number(request.query.get('page')),
            total: 100,
            last_page: 4,
            next_cursor: `after-${request.query.get('page')}`,
          },
        }),
      ),
    );
    const ask = (page: number, city = 'Boston') =>
      provider.getList('sites', {
        pagination: { page, perPage: 25 },
        sort: { field: 'name', order: 'ASC' },
        filter: { city },
      });
    await ask(1);
    expect(fake.last().query.get('cursor')).toBeNull();
    await ask(2);
    expect(fake.last().query.get('cursor')).toBe('after-1');
    await ask(3, 'Salem');
    expect(fake.last().query.get('cursor')).toBeNull();
    await ask(4);
    expect(fake.last().query.get('cursor')).toBeNull();
    await ask(3);
    expect(fake.last().query.get('cursor')).toBe('after-2');
  });

  it('getList without meta counts the rows', async () => {
    const { provider } = setup(when('GET', '/api/features', json({ data: [{ id: 1 }] })));
    const result = await provider.getList('features', {
      pagination: { page: 1, perPage: -1 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result.total).toBe(1);
  });

  it('getList passes meta.query through (with_trashed)', async () => {
    const { fake, provider } = setup(when('GET', '/api/sites', json({ data: [], meta: { total: 0 } })));
    await provider.getList('sites', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
      meta: { query: { with_trashed: 1 } },
    });
    expect(fake.last().query.get('with_trashed')).toBe('1');
  });

  it('getOne -> GET /api/{r}/{id}', async () => {
    const { fake, provider } = setup(when('GET', '/api/users/7', json({ data: { id: 7, name: 'Ada' } })));
    const result = await provider.getOne('users', { id: 7 });
    expect(fake.last().path).toBe('/api/users/7');
    expect(result.data).toEqual({ id: 7, name: 'Ada' });
  });

  it('getMany -> one list request filtering on the ids, all rows', async () => {
    const { fake, provider } = setup(
      when('GET', '/api/roles', json({ data: [{ id: 1 }, { id: 2 }], meta: { total: 2 } })),
    );
    const result = await provider.getMany('roles', { ids: [1, 2] });
    expect(fake.last().query.get('per_page')).toBe('-1');
    expect(filterOf(fake.last().query)).toEqual({ id: [1, 2] });
    expect(result.data).toHaveLength(2);
    const none = await provider.getMany('roles', { ids: [] });
    expect(none.data).toEqual([]);
  });

  it('getManyReference -> list filtered on the target', async () => {
    const { fake, provider } = setup(
      when('GET', '/api/notes', json({ data: [{ id: 3 }], meta: { total: 1, current_page: 1, last_page: 1 } })),
    );
    const result = await provider.getManyReference('notes', {
      target: 'site_id',
      id: 9,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: { done: false },
    });
    expect(filterOf(fake.last().query)).toEqual({ done: false, site_id: 9 });
    expect(fake.last().query.get('per_page')).toBe('5');
    expect(result.total).toBe(1);
  });

  it('create -> POST /api/{r}, keeping the server message', async () => {
    const { fake, provider } = setup(
      when('POST', '/api/teams', json({ data: { id: 4, name: 'East' }, message: 'Team created successfully.' }, 201)),
    );
    const result = await provider.create('teams', { data: { name: 'East' } });
    expect(fake.last().method).toBe('POST');
    expect(fake.last().path).toBe('/api/teams');
    expect(fake.last().body).toEqual({ name: 'East' });
    expect(fake.last().headers['x-xsrf-token']).toBeTruthy();
    expect(result.data).toEqual({ id: 4, name: 'East' });
    expect(result.meta).toEqual({ message: 'Team created successfully.' });
  });

  it('create with a file -> multipart', async () => {
    const { fake, provider } = setup(when('POST', '/api/attachments', json({ data: { id: 1 } }, 201)));
    const file = new File(['a,b'], 'data.csv', { type: 'text/csv' });
    await provider.create('attachments', { data: { file: { rawFile: file, title: 'data.csv' }, site_id: 5 } });
    const body = fake.last().rawBody as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('data.csv');
    expect(body.get('site_id')).toBe('5');
  });

  it('imports create sends files[]', () => {
    const form = toFormData({
      files: [new File(['x'], 'a.csv'), new File(['y'], 'b.csv')],
      importer_id: 2,
      dry: true,
      nothing: null,
    });
    expect((form.getAll('files[]') as File[]).map((f) => f.name)).toEqual(['a.csv', 'b.csv']);
    expect(form.get('dry')).toBe('1');
    expect(form.get('nothing')).toBe('');
  });

  it('update -> POST /api/{r}/{id}', async () => {
    const { fake, provider } = setup(
      when('POST', '/api/users/7', json({ data: { id: 7, first_name: 'Ada' }, message: 'User updated successfully.' })),
    );
    const result = await provider.update('users', {
      id: 7,
      data: { first_name: 'Ada' },
      previousData: { id: 7, first_name: 'A' },
    });
    expect(fake.last().method).toBe('POST');
    expect(fake.last().path).toBe('/api/users/7');
    expect(fake.last().body).toEqual({ first_name: 'Ada' });
    expect(result.data.first_name).toBe('Ada');
    expect(result.meta.message).toBe('User updated successfully.');
  });

  it('updateMany -> one POST per id', async () => {
    const { fake, provider } = setup(when('POST', /\/api\/tasks\/\d+/, json({ data: {} })));
    const result = await provider.updateMany('tasks', { ids: [1, 2], data: { done: true } });
    expect(
      fake
        .api()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['POST /api/tasks/1', 'POST /api/tasks/2']);
    expect(result.data).toEqual([1, 2]);
  });

  it('delete -> DELETE /api/{r}/{id} with optional query', async () => {
    const { fake, provider } = setup(
      when('DELETE', '/api/sites/3', json({ data: { id: 3, deleted_at: 'x' }, message: 'Site deleted successfully.' })),
    );
    const result = await provider.delete<any>('sites', {
      id: 3,
      previousData: { id: 3 },
      meta: { query: { force: 1 } },
    });
    expect(fake.last().method).toBe('DELETE');
    expect(fake.last().query.get('force')).toBe('1');
    expect(result.data.deleted_at).toBe('x');
    expect(result.meta.message).toBe('Site deleted successfully.');
  });

  it('delete with an empty 204 answer returns the previous data', async () => {
    const { provider } = setup(when('DELETE', '/api/tags/1', { status: 204 }));
    const result = await provider.delete('tags', { id: 1, previousData: { id: 1, name: 'x' } });
    expect(result.data).toEqual({ id: 1, name: 'x' });
  });

  it('deleteMany -> one DELETE per id', async () => {
    const { fake, provider } = setup(when('DELETE', /\/api\/tags\/\d+/, json({ data: {} })));
    const result = await provider.deleteMany('tags', { ids: [5, 6] });
    expect(
      fake
        .api()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['DELETE /api/tags/5', 'DELETE /api/tags/6']);
    expect(result.data).toEqual([5, 6]);
  });

  it('restore -> POST /api/{r}/{id}/restore', async () => {
    const { fake, provider } = setup(
      when('POST', '/api/contacts/8/restore', json({ data: { id: 8 }, message: 'Contact restored successfully.' })),
    );
    const result = await provider.restore('contacts', { id: 8 });
    expect(fake.last().path).toBe('/api/contacts/8/restore');
    expect(result.meta.message).toBe('Contact restored successfully.');
  });

  it('custom actions -> {method} /api/{r}/{id}/{action}', async () => {
    const { fake, provider } = setup(
      when('POST', '/api/notes/2/complete', json({ data: { id: 2 } })),
      when('POST', '/api/notifications/4/dismiss', json({ data: { id: 4 } })),
      when('POST', '/api/sites/1/change-type', json({ data: { id: 1, type: 'union' } })),
      when('POST', '/api/importers/import', json({ data: null })),
      when('POST', '/api/regions/colors', json({ data: null })),
    );
    await provider.action('notes', { id: 2, action: 'complete' });
    await provider.action('notifications', { id: 4, action: 'dismiss' });
    const changed = await provider.action('sites', { id: 1, action: 'change-type', data: { type: 'union' } });
    expect(fake.last().body).toEqual({ type: 'union' });
    expect(changed.data.type).toBe('union');
    await provider.action('importers', { action: 'import', data: { rows: [] } });
    await provider.action('regions', { action: 'colors', data: {} });
    expect(fake.api().map((r) => r.path)).toEqual([
      '/api/notes/2/complete',
      '/api/notifications/4/dismiss',
      '/api/sites/1/change-type',
      '/api/importers/import',
      '/api/regions/colors',
    ]);
  });

  it('nested resources keep their slash (assistant/threads)', async () => {
    const { fake, provider } = setup(when('GET', '/api/assistant/threads', json({ data: [], meta: { total: 0 } })));
    await provider.getList('assistant/threads', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(fake.last().path).toBe('/api/assistant/threads');
  });

  it('main data calls: config, features and schemas with per_page=-1, statistics, profile, options', async () => {
    const { fake, provider } = setup(
      when('GET', '/api/system/config', json({ name: 'Organizing Map' })),
      when('GET', '/api/features', json({ data: [{ id: 1, slug: 'map', enabled: true }] })),
      when('GET', '/api/schemas', json({ data: [{ id: 1, type: 'site' }] })),
      when('GET', '/api/dashboard/statistics', json({ data: { tasks_open: 3 } })),
      when('POST', '/api/profile', json({ data: { id: 1 }, message: 'Settings updated successfully.' })),
      when('GET', '/api/options/roles', json({ data: [{ id: 1, name: 'Admin' }] })),
    );
    expect((await provider.getConfig()).name).toBe('Organizing Map');
    expect(await provider.getFeatures()).toHaveLength(1);
    expect(fake.last().query.get('per_page')).toBe('-1');
    expect(await provider.getSchemas()).toHaveLength(1);
    expect(fake.last().query.get('per_page')).toBe('-1');
    expect(await provider.getStatistics({ range: 'week' })).toEqual({ tasks_open: 3 });
    expect(fake.last().query.get('range')).toBe('week');
    expect((await provider.updateProfile({ first_name: 'A' })).message).toBe('Settings updated successfully.');
    expect(await provider.options('roles')).toEqual([{ id: 1, name: 'Admin' }]);
  });

  it('the named methods ask their endpoints: map markers leave out empty filters and round the box', async () => {
    const { fake, provider } = setup(
      when('GET', '/api/map/markers', json({ data: [], meta: { zoom: 9 } })),
      when('GET', '/api/reports/market-share', json({ data: { share: 0.4 } })),
      when('GET', '/api/imports/7/failures', json({ data: [], meta: { total: 0, last_page: 1 } })),
      when('GET', '/api/contacts/3/timeline', json({ data: [{ kind: 'note' }] })),
      when('POST', '/api/archived-values/5/restore', json({ message: 'Restored.' })),
    );
    await provider.mapMarkers([-118.123456, 34, -117, 35], 9, ['sites'], { type: ['a'], status: [], bid: '' });
    expect(fake.last().query.get('bbox')).toBe('-118.12346,34,-117,35');
    expect(filterOf(fake.last().query)).toEqual({ type: ['a'] });
    expect(await provider.insight('reports/market-share', { year: 2026 })).toEqual({ data: { share: 0.4 } });
    expect(fake.last().query.get('year')).toBe('2026');
    await provider.importFailures(7, 2);
    expect([fake.last().query.get('page'), fake.last().query.get('per_page')]).toEqual(['2', '25']);
    expect(await provider.personTimeline({ type: 'contact', id: 3 })).toEqual([{ kind: 'note' }]);
    expect(await provider.restoreArchivedValue(5)).toBe('Restored.');
  });

  it('errors pass through with their kind (422 keeps flattened field errors)', async () => {
    const { provider } = setup(
      when('POST', '/api/users', json({ message: 'The given data was invalid.', errors: { email: ['Taken.'] } }, 422)),
    );
    const error = await provider.create('users', { data: {} }).catch((e) => e);
    expect(error.kind).toBe('bad-request');
    expect(error.body.errors).toEqual({ email: 'Taken.' });
  });

  it('listQuery leaves out what is not given', () => {
    expect(listQuery({})).toEqual({});
    expect(listQuery({ filter: { q: '' } })).toEqual({});
  });
});
