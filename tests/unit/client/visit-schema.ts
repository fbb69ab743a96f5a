import type { RecordSchema } from '../../../src/client/records/schema';
import type { LogicBlock } from '../../../src/common/schema-types';

/** "When Outcome equals Not home or Workers seen is less than 1, hide Detail": built in the editor test, run in the form test. */
export const NO_DETAIL_WHEN_NOBODY_SEEN: LogicBlock = {
  trigger: 'always',
  match: 'any',
  conditions: [
    { source: 'field:1', operator: 'equals', value: 'not_home' },
    { source: 'field:2', operator: 'less-than', value: '1' },
  ],
  actions: [{ target: 'field:4', action: 'hide-field' }],
  clear_hidden: false,
};

/** The component tests' record type, as made in the editor: a door-knock visit (the logic blocks are the test's). */
export function visitSchema(actions: LogicBlock[] = []): RecordSchema {
  const field = (
    id: number,
    slug: string,
    name: string,
    type: string,
    options: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ) =>
    ({
      id,
      schema_id: 5,
      slug,
      name,
      type,
      category: 'custom',
      internal: false,
      column: false,
      required: false,
      options,
      position: id,
      ...extra,
    }) as RecordSchema['fields'][number];
  return {
    id: 5,
    type: 'visit',
    name_singular: 'Visit',
    name_plural: 'Visits',
    position: 1,
    custom: true,
    restorable: true,
    built_in: false,
    resource: 'visits',
    fields: [
      field(10, 'name', 'Name', 'text', {}, { category: 'internal', internal: true, column: true, required: true }),
      field(1, 'outcome', 'Outcome', 'radios', {
        choices: [
          { value: 'home', label: 'Home' },
          { value: 'not_home', label: 'Not home' },
        ],
      }),
      field(2, 'workers_seen', 'Workers seen', 'text', { input: 'number' }),
      field(3, 'visited_on', 'Visited on', 'date'),
      field(4, 'detail', 'Detail', 'text'),
    ],
    actions,
  };
}
