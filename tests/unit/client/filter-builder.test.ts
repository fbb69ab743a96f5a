/**
 * The grid's filter builder (views/filterBuilder.ts): the operators each kind of field offers, and its rows as the view
 * filter structure the server compiles, and back.
 */
import { describe, expect, it } from 'vitest';
import type { FieldDescriptor } from '../../../src/client/records/fieldTypes/describe';
import {
  type BuilderCondition,
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
    expect(ops(field({ type: 'date' }))).toEqual(['date', 'eq', 'gt', 'lt', 'between', 'empty', 'not_empty']);
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
