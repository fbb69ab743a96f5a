// @vitest-environment happy-dom
/**
 * The generated record list (records/RecordList.tsx) in react-admin with a fake data provider: what the person sees
 * (rows, the "Displaying 1 to N of M" footer) and what the data provider is asked (getList params of a filter),
 * that a row opens the record, and the grid's sort, page and selection reaching the list controller.
 */
import './setup-dom';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AdminContext,
  type AuthProvider,
  type DataProvider,
  memoryStore,
  ResourceContextProvider,
  TestMemoryRouter,
} from 'react-admin';
import type { Location } from 'react-router-dom';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider as appDataProvider, mainData } from '../../../src/client/app/services';
import { createI18nProvider } from '../../../src/client/i18n/i18nProvider';
import RecordList from '../../../src/client/records/RecordList';
import { testQueryClient } from './query-client';

const field = (id: number, slug: string, name: string, type: string, options: Record<string, unknown> = {}) => ({
  id,
  schema_id: 1,
  slug,
  name,
  type,
  category: 'internal',
  internal: true,
  column: true,
  required: false,
  options,
  position: id,
});

const CONTACT_SCHEMA = {
  id: 1,
  type: 'contact',
  resource: 'contacts',
  name_singular: 'Contact',
  name_plural: 'Contacts',
  position: 1,
  built_in: true,
  actions: [],
  fields: [
    field(1, 'first_name', 'First name', 'text'),
    field(2, 'last_name', 'Last name', 'text'),
    field(3, 'status', 'Status', 'dropdown', {
      choices: [
        { value: 'prospect', label: 'Prospect' },
        { value: 'member', label: 'Member' },
      ],
    }),
  ],
};

const CONTACTS = [
  { id: 1, first_name: 'Ana', last_name: 'Lopez', status: 'member', updated_at: '2026-03-01T10:00:00.000Z' },
  { id: 2, first_name: 'Ben', last_name: 'Okafor', status: 'prospect', updated_at: '2026-03-02T10:00:00.000Z' },
  { id: 3, first_name: 'Chloe', last_name: 'Martin', status: 'prospect', updated_at: '2026-03-03T10:00:00.000Z' },
];
const TOTAL = 40;

// Rendering MUI and react-admin in a DOM emulation takes seconds on a busy machine: wait up to 10 s for what should appear.
configure({ asyncUtilTimeout: 10_000 });

/** The status a filter builder's structure asks for (`{all: [{field: 'status', op: 'eq', value}]}`). */
const builtStatus = (filters: unknown) =>
  (filters as { all?: Array<{ field: string; value: unknown }> } | undefined)?.all?.find(
    (item) => item.field === 'status',
  )?.value;

/** A data provider that answers getList from CONTACTS (filtered by `q` and `status`) and records every call. */
function fakeDataProvider() {
  const getList = vi.fn(async (_resource: string, params: { filter?: Record<string, unknown> }) => {
    const { q, filters } = params.filter ?? {};
    const status = params.filter?.status ?? builtStatus(filters);
    const rows = CONTACTS.filter(
      (row) =>
        (!q || `${row.first_name} ${row.last_name}`.toLowerCase().includes(String(q).toLowerCase())) &&
        (!status || row.status === status),
    );
    return { data: rows, total: q || status ? rows.length : TOTAL };
  });
  const provider = {
    getList,
    getOne: vi.fn(async (_resource: string, { id }: { id: number }) => ({
      data: CONTACTS.find((row) => row.id === Number(id)),
    })),
    getMany: vi.fn(async () => ({ data: [] })),
    // No view chosen by the person or their role: the list opens whole.
    defaultView: vi.fn(async () => ({ view: null, source: null })),
    getManyReference: vi.fn(async () => ({ data: [], total: 0 })),
    create: vi.fn(),
    update: vi.fn(),
    updateMany: vi.fn(),
    delete: vi.fn(),
    deleteMany: vi.fn(),
  };
  return provider as typeof provider & DataProvider;
}

const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => [],
  canAccess: async () => true,
};

function renderList(
  dataProvider: DataProvider,
  onLocation: (location: Location) => void = () => undefined,
  auth: AuthProvider = authProvider,
) {
  return render(
    <TestMemoryRouter initialEntries={['/contacts']} locationCallback={onLocation}>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={auth}
        i18nProvider={createI18nProvider()}
        store={memoryStore()}
        queryClient={testQueryClient()}
      >
        <ResourceContextProvider value="contacts">
          <RecordList resource="contacts" />
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

beforeAll(async () => {
  // The live schemas and features come from the app's main data store (normally GET /api/schemas, /api/features).
  vi.spyOn(appDataProvider, 'getSchemas').mockResolvedValue([CONTACT_SCHEMA]);
  vi.spyOn(appDataProvider, 'getFeatures').mockResolvedValue([]);
  await Promise.all([mainData.load('schemas'), mainData.load('features')]);
});

describe('the generated record list', { timeout: 60_000 }, () => {
  let dataProvider: ReturnType<typeof fakeDataProvider>;
  beforeEach(() => {
    dataProvider = fakeDataProvider();
  });

  it('shows the rows and "Displaying 1 to N of M", asking for the first page of 25', async () => {
    renderList(dataProvider);
    expect(await screen.findByText('Ana')).toBeInTheDocument();
    expect(screen.getByText('Lopez')).toBeInTheDocument();
    expect(screen.getByText('Okafor')).toBeInTheDocument();
    // A dropdown shows its choice's label, not the stored value.
    expect(screen.getAllByText('Prospect')).toHaveLength(2);
    expect(screen.getByText('Member')).toBeInTheDocument();
    expect(screen.getByText(`Displaying 1 to 25 of ${TOTAL}`)).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /First name/ })).toBeInTheDocument();
    expect(dataProvider.getList).toHaveBeenCalledWith(
      'contacts',
      expect.objectContaining({ pagination: { page: 1, perPage: 25 }, filter: {} }),
    );
  });

  it('sends a search as the `q` filter and shows what the server answers', async () => {
    renderList(dataProvider);
    await screen.findByText('Ana');
    const user = userEvent.setup();
    await user.type(screen.getByPlaceholderText('Search'), 'okafor');
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'contacts',
        expect.objectContaining({ filter: { q: 'okafor' }, pagination: { page: 1, perPage: 25 } }),
      ),
    );
    await waitFor(() => expect(screen.queryByText('Ana')).not.toBeInTheDocument());
    expect(screen.getByText('Okafor')).toBeInTheDocument();
    expect(screen.getByText('Displaying 1 to 1 of 1')).toBeInTheDocument();
  });

  it('sends a choice condition of the filter builder (the one filter entry point) as `filters`', async () => {
    renderList(dataProvider);
    await screen.findByText('Ana');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filter' });
    await user.click(within(dialog).getByRole('button', { name: 'Add condition' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Field' }));
    await user.click(await screen.findByRole('option', { name: 'Status' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Value' }));
    await user.click(await screen.findByRole('option', { name: 'Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'contacts',
        expect.objectContaining({ filter: { filters: { all: [{ field: 'status', op: 'eq', value: 'member' }] } } }),
      ),
    );
    await waitFor(() => expect(screen.queryByText('Okafor')).not.toBeInTheDocument());
    expect(screen.getByText('Lopez')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeInTheDocument();
  });

  it('opens the record from its row: the name is a link to it', async () => {
    let location: Location | undefined;
    renderList(dataProvider, (next) => (location = next));
    const cell = await screen.findByText('Chloe');
    const row = cell.closest('[role="row"]') as HTMLElement;
    const link = within(row).getByRole('link', { name: 'Chloe' });
    expect(link).toHaveAttribute('href', '/contacts/3/show');
    await userEvent.setup().click(link);
    await waitFor(() => expect(location?.pathname).toBe('/contacts/3/show'));
  });

  it('opens the record with Enter on the name cell', async () => {
    let location: Location | undefined;
    renderList(dataProvider, (next) => (location = next));
    const cell = (await screen.findByText('Ben')).closest('[role="gridcell"]') as HTMLElement;
    const user = userEvent.setup();
    await user.click(cell);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location?.pathname).toBe('/contacts/2/show'));
  });

  it('sorts on the server when a column header is clicked', async () => {
    renderList(dataProvider);
    await screen.findByText('Ana');
    const header = screen.getByRole('columnheader', { name: /Last name/ });
    await userEvent.setup().click(within(header).getByText('Last name'));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'contacts',
        expect.objectContaining({ sort: { field: 'last_name', order: 'ASC' }, pagination: { page: 1, perPage: 25 } }),
      ),
    );
  });

  it('sorts by several fields from the Sort dialog, sent as the server reads them', async () => {
    renderList(dataProvider);
    await screen.findByText('Ana');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sort' });
    await user.click(within(dialog).getByRole('button', { name: 'Add a sort' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Status' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add another sort' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Then by' }));
    await user.click(await screen.findByRole('option', { name: 'Last name' }));
    await user.click(within(dialog).getAllByRole('combobox', { name: 'Order' })[1]);
    await user.click(await screen.findByRole('option', { name: 'Descending' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'contacts',
        expect.objectContaining({ sort: { field: 'status,-last_name', order: 'ASC' } }),
      ),
    );
    expect(screen.getByRole('button', { name: 'Sorted by 2' })).toBeInTheDocument();
  });

  it('asks for the next page from the grid footer', async () => {
    renderList(dataProvider);
    await screen.findByText('Ana');
    await userEvent.setup().click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith(
        'contacts',
        expect.objectContaining({ pagination: { page: 2, perPage: 25 } }),
      ),
    );
    expect(await screen.findByText(`Displaying 26 to 40 of ${TOTAL}`)).toBeInTheDocument();
  });

  it('feeds the rows selected in the grid to the bulk actions', async () => {
    renderList(dataProvider);
    const row = (await screen.findByText('Ana')).closest('[role="row"]') as HTMLElement;
    await userEvent.setup().click(within(row).getByRole('checkbox'));
    expect(await screen.findByText(/1 item selected/i)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Delete/ })).toBeInTheDocument();
  });

  it("edits a cell in place through the data provider update, with the row's updated_at", async () => {
    dataProvider.update.mockImplementation(async (_resource: string, params: any) => ({
      data: { ...params.previousData, ...params.data, updated_at: '2026-03-09T10:00:00.000Z' },
    }));
    renderList(dataProvider);
    const cell = (await screen.findByText('Okafor')).closest('[role="gridcell"]') as HTMLElement;
    const user = userEvent.setup();
    await user.dblClick(cell);
    const input = await within(cell).findByRole('textbox');
    await user.clear(input);
    await user.type(input, 'Okafor-Diaz{Enter}');
    await waitFor(() =>
      expect(dataProvider.update).toHaveBeenCalledWith(
        'contacts',
        expect.objectContaining({ id: 2, data: { last_name: 'Okafor-Diaz', updated_at: '2026-03-02T10:00:00.000Z' } }),
      ),
    );
  });

  it("keeps a refused value in the cell with the server's message", async () => {
    const { ApiError } = await import('../../../src/client/http/errors');
    dataProvider.update.mockRejectedValue(
      new ApiError('bad-request', 'The given data was invalid.', 422, {
        message: 'The given data was invalid.',
        errors: { last_name: 'Last name is too long.' },
      } as never),
    );
    renderList(dataProvider);
    const cell = (await screen.findByText('Lopez')).closest('[role="gridcell"]') as HTMLElement;
    const user = userEvent.setup();
    await user.dblClick(cell);
    const input = await within(cell).findByRole('textbox');
    await user.clear(input);
    await user.type(input, 'Way too long{Enter}');
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Last name is too long.');
    expect(within(cell).getByRole('textbox')).toHaveValue('Way too long');
  });

  it('does not edit in place for a person who may not update the records', async () => {
    renderList(dataProvider, undefined, { ...authProvider, canAccess: async ({ action }) => action !== 'edit' });
    const cell = (await screen.findByText('Okafor')).closest('[role="gridcell"]') as HTMLElement;
    await userEvent.setup().dblClick(cell);
    expect(within(cell).queryByRole('textbox')).not.toBeInTheDocument();
  });
});
