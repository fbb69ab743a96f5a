/** The form logic rules every write of a block, a condition or an action passes (SPEC sections 4 and 5). */
import type { Kysely, Transaction } from 'kysely';
import { isCircular } from '../../common/form-logic/index.js';
import { conditionValueProblem } from '../../common/rule-engine/index.js';
import { type LogicBlock, normaliseChoices, parseFieldRef } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError, ValidationError } from '../http/errors.js';

/** Field refs must be `field:{id}` of a field of the block's own schema; a block must not be circular. */
export async function checkLogic(
  trx: Transaction<DB>,
  schemaId: number,
  block: Pick<LogicBlock, 'conditions' | 'actions'>,
  prefix: { conditions: string; actions: string },
) {
  const errors: Record<string, string[]> = {};
  const rows = await trx
    .selectFrom('schema_fields')
    .select(['id', 'name', 'options'])
    .where('schema_id', '=', schemaId)
    .execute();
  const fields = new Map(rows.map((f) => [f.id as number, f]));
  block.conditions.forEach((condition, i) => {
    const id = parseFieldRef(condition.source);
    if (id === null) errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = ['Invalid source type'];
    else if (!fields.has(id))
      errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = [
        `field:${id} is not a field of this record type.`,
      ];
    const problem = conditionValueProblem(condition.operator, condition.value);
    if (problem) errors[`${prefix.conditions}${i}.value`.replace(/^\./, '')] = [problem];
    else if (id !== null && fields.has(id) && EXACT.has(condition.operator)) {
      // A choice field is compared with one of its choices (a label or another case names the choice's key).
      const choice = choiceOf(fields.get(id)!, condition.value);
      if (typeof choice === 'string') condition.value = choice;
      else if (choice) errors[`${prefix.conditions}${i}.value`.replace(/^\./, '')] = [choice.problem];
    }
  });
  block.actions.forEach((action, i) => {
    const id = parseFieldRef(action.target);
    if (id === null) errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = ['Invalid target type'];
    else if (!fields.has(id))
      errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = [`field:${id} is not a field of this record type.`];
    else if (action.action === 'set-value' && typeof action.value === 'string') {
      const choice = choiceOf(fields.get(id)!, action.value);
      if (typeof choice === 'string') action.value = choice;
      else if (choice) errors[`${prefix.actions}${i}.value`.replace(/^\./, '')] = [choice.problem];
    }
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (isCircular(block))
    throw new ValidationError({
      actions: ['A field cannot be both a condition source and an action target of one block (it would be circular).'],
    });
}

/** Operators that compare a field's value with one value as a whole. */
const EXACT = new Set(['equals', 'not-equals']);

/**
 * The key of the choice `value` names (its key, or its label or key in another case), a problem listing the choices
 * when it names none, or null when the field has no choices (any value).
 */
function choiceOf(field: { name: string; options: unknown }, value: unknown): string | { problem: string } | null {
  const choices = normaliseChoices((field.options as { choices?: unknown } | null)?.choices);
  if (!choices.length || value === null || value === undefined || value === '') return null;
  const wanted = String(value).trim().toLowerCase();
  const found =
    choices.find((choice) => choice.value === value) ??
    choices.find((choice) => choice.value.toLowerCase() === wanted || choice.label.toLowerCase() === wanted);
  if (found) return found.value;
  return {
    problem: `${field.name} has no choice “${String(value)}”: its choices are ${choices.map((c) => (c.label === c.value ? `“${c.value}”` : `“${c.label}” (${c.value})`)).join(', ')}.`,
  };
}

export async function blockChildren(db: Kysely<DB>, blockId: number): Promise<{ conditions: any[]; actions: any[] }> {
  const [conditions, actions] = await Promise.all([
    db.selectFrom('logic_conditions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
    db.selectFrom('logic_actions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
  ]);
  return { conditions, actions };
}

async function blockSchema(trx: Transaction<DB>, blockId: number) {
  const block = await trx
    .selectFrom('logic_blocks')
    .select(['id', 'schema_id'])
    .where('id', '=', blockId)
    .executeTakeFirst();
  if (!block) throw fieldError('logic_block_id', 'The selected logic block does not exist.');
  return block.schema_id as number;
}

export async function schemaOfBlock(db: Kysely<DB>, blockId: number) {
  return (await db.selectFrom('logic_blocks').select('schema_id').where('id', '=', blockId).executeTakeFirst())
    ?.schema_id as number | undefined;
}

/**
 * A condition or action is checked with the rest of its block (the block's logic must stay valid): it may not
 * move to another block, and an error about it lands on its own `source` / `target` field.
 */
export async function checkBlockPart(
  trx: Transaction<DB>,
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
