/** What the schema editor screens share: labels of field types, triggers, operators (the rule engine's) and actions; readable rules. */
import { FORM_OPERATORS, LOGIC_OPERATORS } from '../../common/rule-engine/index';
import { RELATION_TARGETS, SCHEMA_FIELD_TYPES, parseFieldRef, type LogicBlock, type SchemaField, type SchemaFieldType } from '../../common/schema-types';
import { titleCase } from '../i18n/labels';

export const FIELD_TYPE_LABELS: Record<SchemaFieldType, string> = {
  text: 'Text',
  textarea: 'Text area',
  email: 'Email',
  phone: 'Phone',
  link: 'Link',
  date: 'Date',
  datetime: 'Date and time',
  boolean: 'Yes / no',
  dropdown: 'Dropdown',
  color: 'Color',
  note: 'Note',
  attachment: 'Attachment',
  addresses: 'Addresses',
  slug: 'Slug',
  radios: 'Radio buttons',
  'social-link': 'Social link',
  'prevailing-wage': 'Prevailing wage',
  'estimated-hours': 'Estimated hours',
  relation: 'Relation',
};

export const FIELD_TYPE_CHOICES = SCHEMA_FIELD_TYPES.map((type) => ({ id: type, name: FIELD_TYPE_LABELS[type] }));

const RELATION_LABELS: Record<string, string> = {
  'site-street': 'Site street',
  'site-city': 'Site city',
  'site-county': 'Site county',
  'site-state': 'Site state',
  'site-postal-code': 'Site postal code',
  trade: 'Craft (trade)',
};
export const RELATION_TARGET_CHOICES = Object.keys(RELATION_TARGETS).map((target) => ({ id: target, name: RELATION_LABELS[target] ?? titleCase(target.replace(/-/g, ' ')) }));

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

const nameOf = (choices: Array<{ id: string; name: string }>, id: string) => choices.find((choice) => choice.id === id)?.name ?? id;

/** What a condition compares with, as the summary says it: text quoted, numbers and dates as they are, nothing for is-empty. */
function conditionValue(operator: string, value: unknown): string {
  const wanted = FORM_OPERATORS[operator as keyof typeof FORM_OPERATORS]?.value ?? 'text';
  if (wanted === 'none') return '';
  return wanted === 'text' ? ` "${String(value ?? '')}"` : ` ${String(value ?? '')}`;
}

/** 'When Status equals "closed", show Closed at'; 'When Outcome equals "not_home" or Workers seen is less than 1, hide Detail' */
export function describeBlock(block: Pick<LogicBlock, 'conditions' | 'actions' | 'match'>, fields: readonly Pick<SchemaField, 'id' | 'name'>[]): string {
  const fieldName = (ref: string) => {
    const id = parseFieldRef(ref);
    return fields.find((field) => Number(field.id) === id)?.name ?? ref;
  };
  const when = (block.conditions ?? [])
    .map((condition) => `${fieldName(condition.source)} ${nameOf(OPERATOR_CHOICES, condition.operator)}${conditionValue(condition.operator, condition.value)}`)
    .join(block.match === 'any' ? ' or ' : ' and ');
  const then = (block.actions ?? [])
    .map((action) => (action.action === 'set-value' ? `set ${fieldName(action.target)} to "${String(action.value ?? '')}"` : `${nameOf(ACTION_CHOICES, action.action)} ${fieldName(action.target)}`))
    .join(', ');
  return `${when ? `When ${when}` : 'Always'}, ${then || 'do nothing'}`;
}

/** Field names as slugs, as the server would make them ('Gate code' -> 'gate_code'). */
export function slugifyField(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'f_$1')
    .slice(0, 60);
}
