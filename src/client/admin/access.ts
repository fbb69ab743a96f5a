/**
 * The role screen's access matrix as data (docs/security.md "The administrator's screen"): for each record type, which
 * actions the role's permissions allow and its rules in plain words, computed with the same common code the server
 * compiles (common/access-rules.ts). Pure, so it is unit tested (tests/unit/client/access-matrix.test.ts).
 */
import {
  type ConditionGroup,
  effectiveRule,
  type FieldRule,
  fieldRules,
  POLICY_ACTIONS,
  type PolicyAction,
  type RolePolicy,
  type RowRule,
  type RuleNames,
  ruleWords,
  type TypePolicy,
} from '../../common/access-rules';
import { can } from '../../common/permissions';

/** A record type as GET /api/access/types describes it. */
export interface AccessType {
  type: string;
  resource: string;
  singular: string;
  plural: string;
  entity: string;
  category_field: string | null;
  fields: Array<{ slug: string; name: string; kind: string; options?: string[] }>;
  reach: { own: boolean; team: boolean; turf: boolean; parent: boolean };
}

export interface MatrixRow {
  type: AccessType;
  actions: Record<PolicyAction, boolean>;
  /** "the inspections they created or are assigned": what the role reads, changes and deletes. */
  words: { read: string; update: string; delete: string };
  /** Fields hidden and read-only, by name. */
  hidden: string[];
  readOnly: string[];
  /** One sentence for the whole row. */
  sentence: string;
}

export function namesOf(type: AccessType): RuleNames {
  const byField = new Map(type.fields.map((field) => [field.slug, field.name]));
  return {
    singular: type.singular,
    plural: type.plural,
    field: (slug) => byField.get(slug) ?? slug.replace(/_/g, ' '),
  };
}

/** What the permissions allow on the type, the actions beyond the permission strings derived as the server does. */
export function actionsOf(permissions: readonly string[], entity: string): Record<PolicyAction, boolean> {
  const subject = { role_id: null, permissions };
  const read = can(subject, `${entity}:read`, true);
  const create = can(subject, `${entity}:create`, true);
  const update = can(subject, `${entity}:update`, true);
  return {
    read,
    create,
    update,
    delete: can(subject, `${entity}:delete`, true),
    restore: can(subject, `${entity}:restore`, true),
    export: read && can(subject, 'export:create'),
    import: (create || update) && can(subject, 'import:create'),
    history: read && can(subject, 'revision:read'),
  };
}

/** The matrix of a role (its permissions and policy) over the record types, in plain words. */
export function accessMatrix(
  role: { name: string; permissions: readonly string[]; policy: RolePolicy },
  types: readonly AccessType[],
): MatrixRow[] {
  const subject = { role_id: null, permissions: role.permissions, policy: role.policy };
  return types.map((type) => {
    const facts = { type: type.type, entity: type.entity, categoryField: type.category_field ?? undefined };
    const names = namesOf(type);
    const actions = actionsOf(role.permissions, type.entity);
    const words = {
      read: ruleWords(effectiveRule(subject, facts, 'read'), names),
      update: ruleWords(effectiveRule(subject, facts, 'update'), names),
      delete: ruleWords(effectiveRule(subject, facts, 'delete'), names),
    };
    const rules = fieldRules(subject, type.type);
    const named = (rule: FieldRule) =>
      Object.entries(rules)
        .filter(([, held]) => held === rule)
        .map(([slug]) => names.field?.(slug) ?? slug);
    const hidden = named('hidden');
    const readOnly = named('read_only');
    // "Organizers: see …", whatever the role's name (a plural, a singular, a title) reads well after it.
    const who = role.name.trim() || 'This role';
    const parts: string[] = [];
    if (!actions.read) parts.push(`cannot see ${type.plural.toLowerCase()}`);
    else {
      parts.push(`see ${words.read}`);
      if (actions.update && words.update !== words.read) parts.push(`change ${words.update}`);
      if (actions.delete && words.delete !== words.update) parts.push(`delete ${words.delete}`);
      if (hidden.length) parts.push(`cannot see ${listed(hidden)}`);
      if (readOnly.length) parts.push(`cannot change ${listed(readOnly)}`);
    }
    return { type, actions, words, hidden, readOnly, sentence: `${who}: ${parts.join('; ')}.` };
  });
}

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The kinds a rule is made of in the editor: picked together, joined by "any of" or "all of". */
export type RuleKind = 'own' | 'team' | 'turf' | 'parent' | 'condition';

/** A rule as the editor holds it. */
export interface RuleDraft {
  /** Nothing picked: every record. */
  kinds: RuleKind[];
  join: 'any' | 'all';
  condition: ConditionGroup;
}

const EMPTY_CONDITION: ConditionGroup = { all: [] };

/** A rule as the editor shows it (a rule the editor cannot show keeps its kinds, with the first condition). */
export function draftOf(rule: RowRule | undefined): RuleDraft {
  if (!rule || rule === 'all') return { kinds: [], join: 'any', condition: EMPTY_CONDITION };
  // `shared` is the policy's own rule of saved views, never a role's: not an editor kind.
  if (typeof rule === 'string')
    return { kinds: rule === 'none' || rule === 'shared' ? [] : [rule], join: 'any', condition: EMPTY_CONDITION };
  if ('condition' in rule) return { kinds: ['condition'], join: 'any', condition: rule.condition };
  const parts = 'any' in rule ? rule.any : rule.all;
  const kinds = parts.flatMap((part) =>
    typeof part === 'string'
      ? part === 'all' || part === 'none' || part === 'shared'
        ? []
        : [part]
      : 'condition' in part
        ? ['condition' as const]
        : [],
  );
  const condition = parts.find(
    (part): part is { condition: ConditionGroup } => typeof part === 'object' && 'condition' in part,
  );
  return { kinds, join: 'any' in rule ? 'any' : 'all', condition: condition?.condition ?? EMPTY_CONDITION };
}

/** The rule an editor's draft stands for (undefined: every record, nothing to keep). */
export function ruleOf(draft: RuleDraft): RowRule | undefined {
  const parts: RowRule[] = draft.kinds.flatMap((kind): RowRule[] => {
    if (kind !== 'condition') return [kind];
    const items = 'all' in draft.condition ? draft.condition.all : draft.condition.any;
    return items.length ? [{ condition: draft.condition }] : [];
  });
  if (!parts.length) return undefined;
  if (parts.length === 1) return parts[0];
  return draft.join === 'any' ? { any: parts } : { all: parts };
}

/** A role's policy with one type's rules replaced (empty rules dropped, so the type keeps its defaults). */
export function withTypePolicy(policy: RolePolicy, type: string, next: TypePolicy): RolePolicy {
  const cleaned: TypePolicy = {};
  if (next.read !== undefined) cleaned.read = next.read;
  if (next.update !== undefined) cleaned.update = next.update;
  if (next.delete !== undefined) cleaned.delete = next.delete;
  if (next.fields && Object.keys(next.fields).length) cleaned.fields = next.fields;
  const out = { ...policy };
  if (Object.keys(cleaned).length) out[type] = cleaned;
  else delete out[type];
  return out;
}

export { POLICY_ACTIONS };
