import { describe, expect, it } from 'vitest';
import {
  type BulkEditRecord,
  bulkEditableFields,
  bulkEditStage,
  bulkProgressText,
  bulkResultText,
  bulkSelection,
  bulkUndoText,
} from '../../../src/client/records/bulkEdit/bulkEdit';
import type { FieldDescriptor } from '../../../src/client/records/fieldTypes';

const field = (slug: string, type: FieldDescriptor['type'], extra: Partial<FieldDescriptor> = {}) =>
  ({ slug, type, label: slug, readOnly: false, withTrade: false, ...extra }) as FieldDescriptor;

const record = (extra: Partial<BulkEditRecord> = {}): BulkEditRecord => ({
  id: 1,
  resource: 'sites',
  field: 'site_status_id',
  status: 'complete',
  total: 500,
  processed: 500,
  changed_count: 490,
  unchanged_count: 0,
  refused_count: 10,
  message: null,
  undo_status: null,
  restored_count: 0,
  kept_count: 0,
  progress: 100,
  ...extra,
});

describe('bulk edit', () => {
  it('offers the fields a form edits with one value, not files, addresses, read-only or contractor lists', () => {
    const fields = [
      field('name', 'text'),
      field('attachments', 'attachment'),
      field('addresses', 'addresses'),
      field('made', 'date', { readOnly: true }),
      field('contractors', 'relation', { withTrade: true }),
      field('site_status_id', 'relation'),
      field('notes', 'note'),
    ];
    expect(bulkEditableFields(fields).map((f) => f.slug)).toEqual(['name', 'site_status_id']);
  });

  it('sends the rows chosen, or the list query (filters and search) for every record matching', () => {
    expect(bulkSelection([3, 1], { type: 'union', q: 'Tower' }, false)).toEqual({ ids: [3, 1] });
    expect(bulkSelection([3, 1], { type: 'union', q: ' Tower ' }, true)).toEqual({
      query: { filter: { type: 'union' }, search: 'Tower' },
    });
    expect(bulkSelection([3], {}, true)).toEqual({ query: {} });
  });

  it('tells the stages and says what happened', () => {
    expect(bulkEditStage(record({ status: 'pending' }))).toBe('running');
    expect(bulkEditStage(record())).toBe('done');
    expect(bulkEditStage(record({ undo_status: 'processing' }))).toBe('undoing');
    expect(bulkEditStage(record({ undo_status: 'complete' }))).toBe('undone');
    expect(bulkProgressText(record({ status: 'processing', processed: 120, progress: 24 }), 'sites')).toBe(
      '120 of 500 sites (24%)',
    );
    expect(bulkProgressText(record({ status: 'pending', processed: 0, progress: 0 }), 'sites')).toBe(
      '0 of 500 sites (0%), waiting for the worker',
    );
    expect(bulkProgressText(record({ undo_status: 'processing', restored_count: 40, progress: 8 }), 'sites')).toBe(
      '40 of 490 put back (8%)',
    );
    expect(bulkResultText(record({ unchanged_count: 1 }), 'site', 'sites')).toEqual([
      '490 sites changed.',
      '1 already had this value.',
      '10 sites were not changed:',
    ]);
    expect(bulkResultText(record({ changed_count: 1, refused_count: 1 }), 'site', 'sites')).toEqual([
      '1 site changed.',
      '1 site was not changed:',
    ]);
    expect(
      bulkResultText(record({ status: 'failed', message: 'This list no longer exists.' }), 'site', 'sites'),
    ).toEqual(['This list no longer exists.']);
    expect(
      bulkUndoText(record({ undo_status: 'complete', restored_count: 489, kept_count: 1 }), 'site', 'sites'),
    ).toEqual(['489 sites got their value back.', '1 site was changed again since and kept that change.']);
  });
});
