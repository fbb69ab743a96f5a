import { LOGIC_OPERATORS } from '../../common/schema-types.js';
import type { ResourceDefinition } from '../records/resource.js';
import { checkBlockPart, schemaOfBlock } from './logic-checks.js';
import { logicPart, reviseSchema } from './schema-revisions.js';
import { schemaChanged } from './schemas-resource.js';

/** One condition of a block: `source` is `field:{id}` ('Invalid source type' otherwise). Permission entity: logic-block. */
export const logicConditionsResource: ResourceDefinition = {
  name: 'logic-conditions',
  type: 'logic-condition',
  permission: 'logic-block',
  table: 'logic_conditions',
  singular: 'Logic condition',
  fields: {
    logic_block_id: { kind: 'integer', required: true, min: 1, label: 'logic block' },
    source: { kind: 'text', required: true, max: 40 },
    operator: { kind: 'enum', required: true, options: LOGIC_OPERATORS },
    value: { kind: 'text', max: 2_000 },
  },
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      const mine = {
        source: values.source ?? existing?.source,
        operator: values.operator ?? existing?.operator,
        value: 'value' in values ? values.value : existing?.value,
      };
      await checkBlockPart(trx, values, existing, 'conditions', mine);
      // A choice named by its label is kept as its key.
      return 'value' in values ? { ...values, value: mine.value } : values;
    },
    async afterWrite(record, { trx, action, existing, user, records }) {
      const blockId = record.logic_block_id ?? existing?.logic_block_id;
      const schemaId = await schemaOfBlock(trx, blockId);
      if (schemaId)
        await reviseSchema(records, trx, schemaId, user, {
          [`logic:${blockId}:condition:${record.id ?? existing?.id}`]: [
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
