// @vitest-environment happy-dom
/**
 * A relation column's cell (records/grid/columns.tsx, the field-type table's relation view): the names the list's
 * answer carries (`_labels`), as text, linked to the records when the person may read them and the cell does not
 * edit in place; no name for a linked record the person may not read (never its id); a name is text, never HTML.
 * The cell is a plain function of its row: no record context, no query, no permission check of its own.
 */
import './setup-dom';
import type { GridRenderCellParams } from '@mui/x-data-grid';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { describeField, type FieldDescriptor } from '../../../src/client/records/fieldTypes';
import { gridColumn } from '../../../src/client/records/grid/columns';

const relation = (slug: string, resource: string, multiple = false): FieldDescriptor => ({
  ...describeField({ slug, name: slug, type: 'text' }),
  type: 'relation',
  multiple,
  reference: { target: resource as never, resource, options: resource, value: 'id', entity: resource },
});

const status = relation('site_status_id', 'site-statuses');
const trades = relation('trade_ids', 'trades', true);
const choices = [
  { value: 3, label: 'Bidding' },
  { value: 4, label: 'Awarded' },
];

function cell(
  descriptor: FieldDescriptor,
  row: Record<string, unknown>,
  options: Partial<Parameters<typeof gridColumn>[1]> = {},
) {
  const column = gridColumn(descriptor, { linkField: 'name', canEdit: false, ...options });
  const node = column.renderCell!({
    row,
    value: row[descriptor.slug],
    id: row.id,
    field: descriptor.slug,
  } as unknown as GridRenderCellParams);
  return render(<MemoryRouter>{node}</MemoryRouter>);
}

describe('a relation cell', () => {
  it('shows the name the row carries, linked to the record when the person may read it', () => {
    cell(status, { id: 1, site_status_id: 3, _labels: { site_status_id: { 3: 'Bidding' } } }, { readsTarget: true });
    expect(screen.getByRole('link', { name: 'Bidding' })).toHaveAttribute('href', '/site-statuses/3/show');
  });

  it('shows the name as text where the cell edits in place (a click edits) or the person may not read the target', () => {
    const { unmount } = cell(
      status,
      { id: 1, site_status_id: 3, _labels: { site_status_id: { 3: 'Bidding' } } },
      { readsTarget: true, canEdit: true, relationChoices: choices },
    );
    expect(screen.getByText('Bidding')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
    unmount();
    cell(status, { id: 1, site_status_id: 3, _labels: { site_status_id: { 3: 'Bidding' } } }, { readsTarget: false });
    expect(screen.getByText('Bidding')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('names several linked records, leaving out those without a name (never their ids)', () => {
    const { container } = cell(
      trades,
      { id: 1, trade_ids: [7, 8, 9], _labels: { trade_ids: { 7: 'Carpenters', 9: 'Electricians' } } },
      { readsTarget: true },
    );
    expect(container.textContent).toBe('Carpenters, Electricians');
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/trades/7/show',
      '/trades/9/show',
    ]);
  });

  it('shows nothing for a linked record the person may not read, or for no value', () => {
    expect(cell(status, { id: 1, site_status_id: 3, _labels: {} }, { readsTarget: true }).container.textContent).toBe(
      '',
    );
    expect(
      cell(status, { id: 2, site_status_id: null, _labels: {} }, { readsTarget: true }).container.textContent,
    ).toBe('');
  });

  it('shows a name as text, never as HTML', () => {
    const { container } = cell(
      status,
      { id: 1, site_status_id: 3, _labels: { site_status_id: { 3: '<img src=x onerror=alert(1)>Bidding' } } },
      { readsTarget: true },
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link')).toHaveTextContent('<img src=x onerror=alert(1)>Bidding');
  });
});
