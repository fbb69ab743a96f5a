/** The form logic rules every write of a block, a condition or an action passes (SPEC sections 4 and 5). */
import type { Kysely, Transaction } from 'kysely';
import { isCircular } from '../../common/form-logic/index.js';
import { conditionValueProblem } from '../../common/rule-engine/index.js';
import { type LogicBlock, parseFieldRef } from '../../common/schema-types.js';
import { fieldError, ValidationError } from '../http/errors.js';

/** Field refs must be `field:{id}` of a field of the block's own schema; a block must not be circular. */
export async function checkLogic(
  trx: Transaction<any>,
  schemaId: number,
  block: Pick<LogicBlock, 'conditions' | 'actions'>,
  prefix: { conditions: string; actions: string },
) {
  const errors: Record<string, string[]> = {};
  const fields = new Set(
    (await trx.selectFrom('schema_fields').select('id').where('schema_id', '=', schemaId).execute()).map((f) => f.id),
  );
  block.conditions.forEach((condition, i) => {
    const id = parseFieldRef(condition.source);
    if (id === null) errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = ['Invalid source type'];
    else if (!fields.has(id))
      errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = [
        `field:${id} is not a field of this record type.`,
      ];
    const problem = conditionValueProblem(condition.operator, condition.value);
    if (problem) errors[`${prefix.conditions}${i}.value`.replace(/^\./, '')] = [problem];
  });
  block.actions.forEach((action, i) => {
    const id = parseFieldRef(action.target);
    if (id === null) errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = ['Invalid target type'];
    else if (!fields.has(id))
      errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = [`field:${id} is not a field of this record type.`];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (isCircular(block))
    throw new ValidationError({
      actions: ['A field cannot be both a condition source and an action target of one block (it would be circular).'],
    });
}

export async function blockChildren(db: Kysely<any>, blockId: number): Promise<{ conditions: any[]; actions: any[] }> {
  const [conditions, actions] = await Promise.all([
    db.selectFrom('logic_conditions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
    db.selectFrom('logic_actions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
  ]);
  return { conditions, actions };
}

async function blockSchema(trx: Transaction<any>, blockId: number) {
  const block = await trx
    .selectFrom('logic_blocks')
    .select(['id', 'schema_id'])
    .where('id', '=', blockId)
    .executeTakeFirst();
  if (!block) throw fieldError('logic_block_id', 'The selected logic block does not exist.');
  return block.schema_id as number;
}

export async function schemaOfBlock(db: Kysely<any>, blockId: number) {
  return (await db.selectFrom('logic_blocks').select('schema_id').where('id', '=', blockId).executeTakeFirst())
    ?.schema_id as number | undefined;
}

/**
 * A condition or action is checked with the rest of its block (the block's logic must stay valid): it may not
 * move to another block, and an error about it lands on its own `source` / `target` field.
 */
export async function checkBlockPart(
  trx: Transaction<any>,
  values: Record<string, any>,
  existing: Record<string, any> | undefined,
  part: 'conditions' | 'actions',
  mine: Record<string, unknown>,
) {
  const blockId = values.logic_block_id ?? existing!.logic_block_id;
  if (existing && blockId !== existing.logic_block_id)
    throw fieldError(
      'logic_block_id',
      `${part === 'conditions' ? 'A condition' : 'An action'} cannot move to another block.`,
    );
  const schemaId = await blockSchema(trx, blockId);
  const children = await blockChildren(trx, blockId);
  const logic = {
    ...children,
    [part]: [mine, ...children[part].filter((child: { id?: number }) => child.id !== existing?.id)],
  };
  const prefixes =
    part === 'conditions' ? { conditions: '', actions: 'actions.' } : { conditions: 'conditions.', actions: '' };
  const field = part === 'conditions' ? 'source' : 'target';
  await checkLogic(trx, schemaId, logic as any, prefixes).catch((error) => {
    if (error instanceof ValidationError && error.errors[`0.${field}`])
      throw fieldError(field, error.errors[`0.${field}`][0]);
    if (error instanceof ValidationError && error.errors['0.value'])
      throw fieldError('value', error.errors['0.value'][0]);
    throw error;
  });
}
