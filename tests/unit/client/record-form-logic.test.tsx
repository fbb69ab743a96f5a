// @vitest-environment happy-dom
import './setup-dom';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, type DataProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider as appDataProvider, i18nProvider, mainData } from '../../../src/client/app/services';
import RecordCreate from '../../../src/client/records/RecordCreate';
import { testQueryClient } from './query-client';
import { NO_DETAIL_WHEN_NOBODY_SEEN, visitSchema } from './visit-schema';

/**
 * The generated create form of a record type made in the editor, with its form logic: what the person sees as they
 * type and click, and what the data provider is sent when they save.
 */
const visit = visitSchema([
  // Nobody home: no one was seen.
  {
    id: 1,
    trigger: 'on-change',
    match: 'all',
    conditions: [{ source: 'field:1', operator: 'equals', value: 'not_home' }],
    actions: [{ target: 'field:2', action: 'set-value', value: 0 }],
  },
  // No detail when nobody was home or nobody was seen (the rule the editor test builds).
  { id: 2, ...NO_DETAIL_WHEN_NOBODY_SEEN },
]);

beforeEach(async () => {
  vi.spyOn(appDataProvider, 'getSchemas').mockResolvedValue([visit]);
  await mainData.load('schemas');
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the generated form with form logic', () => {
  it('hides and shows a field and applies a set-value as the person types, and saves what the form holds', async () => {
    const create = vi.fn(async (_resource: string, params: { data: any }) => ({
      data: { id: 77, ...params.data },
      meta: { message: 'Visit created successfully.' },
    }));
    const getOne = vi.fn(async () => ({ data: { id: 77 } }));
    render(
      <AdminContext
        dataProvider={{ create, getOne } as unknown as DataProvider}
        i18nProvider={i18nProvider}
        queryClient={testQueryClient()}
      >
        <RecordCreate resource="visits" />
      </AdminContext>,
    );
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('heading', { name: 'Create Visit' })).toBeInTheDocument();
    // Nothing chosen yet, nobody counted: the detail is asked for.
    expect(await screen.findByLabelText('Detail')).toBeInTheDocument();

    // Nobody seen: the detail goes (any one condition is enough); someone seen: it comes back.
    const workers = screen.getByLabelText('Workers seen');
    await user.type(workers, '0');
    await vi.waitFor(() => expect(screen.queryByLabelText('Detail')).not.toBeInTheDocument());
    await user.clear(workers);
    await user.type(workers, '3');
    expect(await screen.findByLabelText('Detail')).toBeInTheDocument();

    // Not home: the on-change block sets the workers seen to 0, and the detail goes.
    await user.click(screen.getByLabelText('Not home'));
    await vi.waitFor(() => expect(screen.getByLabelText('Workers seen')).toHaveValue(0));
    expect(screen.queryByLabelText('Detail')).not.toBeInTheDocument();

    // Home, and two workers seen: the detail is back, and the person fills it in.
    await user.click(screen.getByLabelText('Home'));
    await user.clear(screen.getByLabelText('Workers seen'));
    await user.type(screen.getByLabelText('Workers seen'), '2');
    await user.type(await screen.findByLabelText('Detail'), 'Talked with the foreman');
    await user.type(screen.getByLabelText('Name *'), 'Harbor Depot visit');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith('visits', {
      data: { name: 'Harbor Depot visit', outcome: 'home', workers_seen: 2, detail: 'Talked with the foreman' },
    });
  }, 60_000);

  it('saves the value a set-value gave, and leaves out what the person never saw', async () => {
    const create = vi.fn(async (_resource: string, params: { data: any }) => ({ data: { id: 78, ...params.data } }));
    render(
      <AdminContext
        dataProvider={{ create, getOne: vi.fn(async () => ({ data: { id: 78 } })) } as unknown as DataProvider}
        i18nProvider={i18nProvider}
      >
        <RecordCreate resource="visits" />
      </AdminContext>,
    );
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Name *'), 'Empty house');
    await user.click(screen.getByLabelText('Not home'));
    await vi.waitFor(() => expect(screen.getByLabelText('Workers seen')).toHaveValue(0));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith('visits', {
      data: { name: 'Empty house', outcome: 'not_home', workers_seen: 0 },
    });
  }, 60_000);
});
