import { z } from 'zod';
import { LOGIC_ACTIONS, LOGIC_MATCHES, LOGIC_OPERATORS, LOGIC_TRIGGERS } from '../../common/schema-types.js';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { blockChildren, checkLogic } from './logic-checks.js';
import { blockSnapshot, reviseSchema } from './schema-revisions.js';
import { presentBlock } from './schema-store.js';
import { schemaChanged } from './schemas-resource.js';

const conditionShape = z
  .object({
    source: z.string().max(40),
    operator: z.enum(LOGIC_OPERATORS),
    value: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
  })
  .strict();
const actionShape = z
  .object({ target: z.string().max(40), action: z.enum(LOGIC_ACTIONS), value: z.unknown().optional() })
  .strict();

/**
 * Logic blocks (SPEC 4): a trigger, conditions and actions. `conditions` and `actions` may be sent with the block
 * (they replace its current ones) or written one by one through /api/logic-conditions and /api/logic-actions.
 */
export const logicBlocksResource: ResourceDefinition = {
  name: 'logic-blocks',
  type: 'logic-block',
  table: 'logic_blocks',
  singular: 'Logic block',
  fields: {
    schema_id: { kind: 'integer', required: true, min: 1, label: 'schema', references: { table: 'schemas' } },
    description: { kind: 'text', max: 500 },
    trigger: { kind: 'enum', options: LOGIC_TRIGGERS },
    match: { kind: 'enum', options: LOGIC_MATCHES },
    clear_hidden: { kind: 'boolean', label: 'clear when hidden' },
    position: { kind: 'integer', min: 0, max: 100_000 },
    conditions: {
      kind: 'json',
      storage: 'virtual',
      shape: z.array(conditionShape).max(50),
      sortable: false,
      filterable: false,
    },
    actions: {
      kind: 'json',
      storage: 'virtual',
      shape: z.array(actionShape).max(50),
      sortable: false,
      filterable: false,
    },
  },
  search: ['description'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, action, existing }) {
      const prepared = { ...values };
      if (action === 'update' && 'schema_id' in prepared && prepared.schema_id !== existing!.schema_id)
        throw fieldError('schema_id', 'A logic block cannot move to another record type.');
      const schemaId = prepared.schema_id ?? existing!.schema_id;
      if (prepared.trigger === null || (action === 'create' && !prepared.trigger)) prepared.trigger = 'always';
      if (prepared.match === null || (action === 'create' && !prepared.match)) prepared.match = 'all';
      if ('conditions' in prepared || 'actions' in prepared) {
        const block = {
          conditions: prepared.conditions ?? existing?.conditions ?? [],
          actions: prepared.actions ?? existing?.actions ?? [],
        };
        await checkLogic(trx, schemaId, block, { conditions: 'conditions.', actions: 'actions.' });
      }
      if (action === 'create' && prepared.position === undefined) {
        const last = await trx
          .selectFrom('logic_blocks')
          .select((eb) => eb.fn.max('position').as('max'))
          .where('schema_id', '=', schemaId)
          .executeTakeFirst();
        prepared.position = Number(last?.max ?? -1) + 1;
      }
      return prepared;
    },
    async afterWrite(record, { trx, action, values, existing, user, records }) {
      if (action === 'delete') {
        await reviseSchema(records, trx, existing!.schema_id, user, {
          [`logic:${existing!.id}`]: [blockSnapshot(existing), null],
        });
        return;
      }
      if (action !== 'create' && action !== 'update') return;
      if (values && 'conditions' in values) {
        await trx.deleteFrom('logic_conditions').where('logic_block_id', '=', record.id).execute();
        const rows = (values.conditions ?? []).map((c: any) => ({
          logic_block_id: record.id,
          source: c.source,
          operator: c.operator,
          value: c.value == null ? null : String(c.value),
        }));
        if (rows.length) await trx.insertInto('logic_conditions').values(rows).execute();
      }
      if (values && 'actions' in values) {
        await trx.deleteFrom('logic_actions').where('logic_block_id', '=', record.id).execute();
        const rows = (values.actions ?? []).map((a: any) => ({
          logic_block_id: record.id,
          target: a.target,
          action: a.action,
          value: JSON.stringify(a.value ?? null),
        }));
        if (rows.length) await trx.insertInto('logic_actions').values(rows).execute();
      }
      const { conditions, actions } = await blockChildren(trx, record.id);
      const [before, after] = [blockSnapshot(existing), blockSnapshot(record, conditions, actions)];
      if (JSON.stringify(before) !== JSON.stringify(after))
        await reviseSchema(records, trx, record.schema_id, user, { [`logic:${record.id}`]: [before, after] });
    },
    async present(records, db) {
      for (const record of records) {
        const { conditions, actions } = await blockChildren(db, record.id);
        Object.assign(record, presentBlock(record, conditions, actions));
      }
    },
    async afterCommit(record, { records }) {
      await schemaChanged(records, record.schema_id);
    },
  },
};
