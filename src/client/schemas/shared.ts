/** What the schema editor screens share: labels of field types, triggers, operators (the rule engine's) and actions; readable rules. */
import { fieldTypeLabel } from '../../common/field-types';
import { FORM_OPERATORS, LOGIC_OPERATORS } from '../../common/rule-engine/index';
import {
  type LogicBlock,
  parseFieldRef,
  SCHEMA_FIELD_TYPES,
  type SchemaField,
  type SchemaFieldType,
} from '../../common/schema-types';

export const FIELD_TYPE_LABELS = Object.fromEntries(
  SCHEMA_FIELD_TYPES.map((type) => [type, fieldTypeLabel(type)]),
) as Record<SchemaFieldType, string>;
export const FIELD_TYPE_CHOICES = SCHEMA_FIELD_TYPES.map((type) => ({ id: type, name: FIELD_TYPE_LABELS[type] }));

export { relationTargetChoices } from '../records/fieldTypes/ui/options/RelationOptions';

export const TRIGGER_CHOICES = [
  { id: 'always', name: 'Always' },
  { id: 'on-change', name: 'When a field changes' },
  { id: 'on-load', name: 'When the form opens' },
];
export const OPERATOR_CHOICES = LOGIC_OPERATORS.map((id) => ({ id, name: FORM_OPERATORS[id].label }));
export const MATCH_CHOICES = [
  { id: 'all', name: 'All of these' },
  { id: 'any', name: 'Any of these' },
];
export const ACTION_CHOICES = [
  { id: 'show-field', name: 'show' },
  { id: 'hide-field', name: 'hide' },
  { id: 'set-value', name: 'set' },
];

const nameOf = (choices: Array<{ id: string; name: string }>, id: string) =>
  choices.find((choice) => choice.id === id)?.name ?? id;

/** What a condition compares with, as the summary says it: text quoted, numbers and dates as they are, nothing for is-empty. */
function conditionValue(operator: string, value: unknown): string {
  const wanted = FORM_OPERATORS[operator as keyof typeof FORM_OPERATORS]?.value ?? 'text';
  if (wanted === 'none') return '';
  return wanted === 'text' ? ` "${String(value ?? '')}"` : ` ${String(value ?? '')}`;
}

/** 'When Status equals "closed", show Closed at'; 'When Outcome equals "not_home" or Workers seen is less than 1, hide Detail' */
export function describeBlock(
  block: Pick<LogicBlock, 'conditions' | 'actions' | 'match' | 'clear_hidden'>,
  fields: readonly Pick<SchemaField, 'id' | 'name'>[],
): string {
  const fieldName = (ref: string) => {
    const id = parseFieldRef(ref);
    return fields.find((field) => Number(field.id) === id)?.name ?? ref;
  };
  const when = (block.conditions ?? [])
    .map(
      (condition) =>
        `${fieldName(condition.source)} ${nameOf(OPERATOR_CHOICES, condition.operator)}${conditionValue(condition.operator, condition.value)}`,
    )
    .join(block.match === 'any' ? ' or ' : ' and ');
  const then = (block.actions ?? [])
    .map((action) =>
      action.action === 'set-value'
        ? `set ${fieldName(action.target)} to "${String(action.value ?? '')}"`
        : `${nameOf(ACTION_CHOICES, action.action)} ${fieldName(action.target)}`,
    )
    .join(', ');
  const clearing = block.clear_hidden ? ', clearing what the hidden fields hold' : '';
  return `${when ? `When ${when}` : 'Always'}, ${then || 'do nothing'}${clearing}`;
}

/** Field names as slugs, as the server makes them ('Gate code' -> 'gate_code'). */
export { slugifyField } from '../../common/slugs';
