import { LOGIC_ACTIONS } from '../../common/schema-types.js';
import type { ResourceDefinition } from '../records/resource.js';
import { checkBlockPart, schemaOfBlock } from './logic-checks.js';
import { logicPart, reviseSchema } from './schema-revisions.js';
import { schemaChanged } from './schemas-resource.js';

/** One action of a block: `target` is `field:{id}` ('Invalid target type' otherwise). Permission entity: logic-block. */
export const logicActionsResource: ResourceDefinition = {
  name: 'logic-actions',
  type: 'logic-action',
  permission: 'logic-block',
  table: 'logic_actions',
  singular: 'Logic action',
  fields: {
    logic_block_id: { kind: 'integer', required: true, min: 1, label: 'logic block' },
    target: { kind: 'text', required: true, max: 40 },
    action: { kind: 'enum', required: true, options: LOGIC_ACTIONS },
    value: { kind: 'json', max: 20_000, sortable: false },
  },
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      const mine = {
        target: values.target ?? existing?.target,
        action: values.action ?? existing?.action,
        value: 'value' in values ? values.value : existing?.value,
      };
      await checkBlockPart(trx, values, existing, 'actions', mine);
      // A choice named by its label is kept as its key.
      return 'value' in values ? { ...values, value: mine.value } : values;
    },
    async afterWrite(record, { trx, action, existing, user, records }) {
      const blockId = record.logic_block_id ?? existing?.logic_block_id;
      const schemaId = await schemaOfBlock(trx, blockId);
      if (schemaId)
        await reviseSchema(records, trx, schemaId, user, {
          [`logic:${blockId}:action:${record.id ?? existing?.id}`]: [
            logicPart(existing),
            action === 'delete' ? null : logicPart(record),
          ],
        });
    },
    async afterCommit(record, { records }) {
      await schemaChanged(records, await schemaOfBlock(records.db, record.logic_block_id));
    },
  },
};
