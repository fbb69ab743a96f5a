/**
 * The grid's filter builder (views/filterBuilder.ts): the operators each kind of field offers, and its rows as the view
 * filter structure the server compiles, and back.
 */
import { describe, expect, it } from 'vitest';
import type { FieldDescriptor } from '../../../src/client/records/fieldTypes/describe';
import {
  applyBuilderState,
  type BuilderCondition,
  builderStateOf,
  countConditions,
  fromFilterTree,
  operatorsFor,
  toFilterTree,
} from '../../../src/client/views/filterBuilder';

const field = (over: Partial<FieldDescriptor>): FieldDescriptor =>
  ({ slug: 'f', label: 'F', type: 'text', multiple: false, choices: [], filters: [], ...over }) as FieldDescriptor;
const ops = (descriptor: FieldDescriptor) => operatorsFor(descriptor).map((choice) => choice.op);

describe('operators per field type', () => {
  it('offers text, number, date, choice, relation and yes/no fields the operators people expect', () => {
    expect(ops(field({ type: 'text' }))).toEqual(['contains', 'eq', 'neq', 'starts_with', 'empty', 'not_empty']);
    expect(ops(field({ type: 'number' }))).toEqual([
      'eq',
      'neq',
      'gt',
      'gte',
      'lt',
      'lte',
      'between',
      'empty',
      'not_empty',
    ]);
    expect(ops(field({ type: 'date' }))).toEqual([
      'date',
      'eq',
      'gt',
      'gte',
      'lt',
      'lte',
      'between',
      'empty',
      'not_empty',
    ]);
    expect(ops(field({ type: 'dropdown', choices: [{ id: 'union', name: 'Union' }] as never }))).toEqual([
      'eq',
      'neq',
      'in',
      'empty',
      'not_empty',
    ]);
    const relation = { target: 'contractor', resource: 'contractors', options: 'contractors', value: 'id' } as never;
    expect(ops(field({ type: 'relation', reference: relation }))).toEqual(['eq', 'neq', 'in', 'empty', 'not_empty']);
    expect(ops(field({ type: 'relation', reference: relation, multiple: true }))).toEqual([
      'includes',
      'has_any',
      'has_none',
    ]);
    expect(ops(field({ type: 'boolean' }))).toEqual(['eq']);
  });
});

describe('the builder and the view filter structure', () => {
  const inputOf = (condition: BuilderCondition) =>
    condition.op === 'empty' || condition.op === 'has_none'
      ? 'none'
      : condition.op === 'between'
        ? 'number-range'
        : 'text';

  it('writes a top group of all or any with one level of groups, leaving out what is not finished', () => {
    const tree = toFilterTree(
      {
        join: 'all',
        items: [
          {
            join: 'any',
            items: [
              { field: 'type', op: 'eq', value: 'union' },
              { field: 'type', op: 'eq', value: 'pla' },
            ],
          },
          { field: 'bid_date', op: 'date', value: 'this_month' },
          { field: 'general_contractor_id.type', op: 'eq', value: 'union' },
          { field: 'estimated_value', op: 'between', value: [1, ''] },
          { field: 'contact_ids', op: 'has_none', value: 'left over' },
          { field: 'name', op: 'contains', value: '' },
          { join: 'any', items: [] },
        ],
      },
      inputOf,
    );
    expect(tree).toEqual({
      all: [
        {
          any: [
            { field: 'type', op: 'eq', value: 'union' },
            { field: 'type', op: 'eq', value: 'pla' },
          ],
        },
        { field: 'bid_date', op: 'date', value: 'this_month' },
        { field: 'general_contractor_id.type', op: 'eq', value: 'union' },
        { field: 'contact_ids', op: 'has_none' },
      ],
    });
    expect(countConditions(tree)).toBe(5);
    expect(toFilterTree({ join: 'any', items: [{ field: 'name', op: 'contains' }] }, inputOf)).toBeNull();
  });

  it('reads a saved structure back, flattening what is nested deeper than the builder shows', () => {
    expect(
      fromFilterTree({
        any: [
          { field: 'name', op: 'contains', value: 'Harbor' },
          {
            all: [
              { field: 'type', op: 'eq', value: 'union' },
              { any: [{ field: 'city', op: 'eq', value: 'Oakland' }] },
            ],
          },
        ],
      }),
    ).toEqual({
      join: 'any',
      items: [
        { field: 'name', op: 'contains', value: 'Harbor' },
        {
          join: 'all',
          items: [
            { field: 'type', op: 'eq', value: 'union' },
            { field: 'city', op: 'eq', value: 'Oakland' },
          ],
        },
      ],
    });
    expect(fromFilterTree(null)).toEqual({ join: 'all', items: [] });
  });
});

describe('the list dialect folded into the builder (one filter UI for old links too)', () => {
  const kept = new Set(['q', 'type']);
  const fields = new Set(['city', 'value', 'permit_number', 'status']);

  it('shows filter[...] values as conditions, leaves the search and category tab alone', () => {
    const values = {
      q: 'harbor',
      type: 'union',
      city_like: 'Oak',
      value_gte: 1000,
      permit_number_null: true,
      status: 'open',
    };
    expect(builderStateOf(values, kept, fields)).toEqual({
      join: 'all',
      items: [
        { field: 'city', op: 'contains', value: 'Oak' },
        { field: 'value', op: 'gte', value: 1000 },
        { field: 'permit_number', op: 'empty' },
        { field: 'status', op: 'eq', value: 'open' },
      ],
    });
  });

  it('keeps an "any" structure apart from the list dialect, which must all hold', () => {
    const values = {
      city_like: 'Oak',
      filters: {
        any: [{ field: 'status', op: 'eq', value: 'open' }, { all: [{ field: 'value', op: 'gt', value: 5 }] }],
      },
    };
    expect(builderStateOf(values, kept, fields)).toEqual({
      join: 'all',
      items: [
        { field: 'city', op: 'contains', value: 'Oak' },
        {
          join: 'any',
          items: [
            { field: 'status', op: 'eq', value: 'open' },
            { field: 'value', op: 'gt', value: 5 },
          ],
        },
      ],
    });
  });

  it('writes the rows back as filters= alone, keeping the search and category tab', () => {
    const tree = { all: [{ field: 'city', op: 'contains', value: 'Oak' }] };
    expect(applyBuilderState({ q: 'x', type: 'union', city_like: 'Oak', value_gte: 3 }, kept, tree)).toEqual({
      q: 'x',
      type: 'union',
      filters: tree,
    });
    expect(applyBuilderState({ q: 'x', filters: tree }, kept, null)).toEqual({ q: 'x' });
  });
});
