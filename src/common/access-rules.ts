/**
 * The access policy as data (docs/security.md "The access policy"): for each role and record type, a row rule per
 * action and field rules. The server compiles it into SQL (src/server/access/); the client shows it in plain words
 * and edits it (the role screen). Both ask this file what a person's rule for a type is, so the permission strings of
 * SPEC section 6 (`site:read:union`, `site:read:turf`) and a role's own rules give one policy.
 */
import { can, limitedToTurf, type PermissionSubject, permittedCategories } from './permissions.js';

/** A condition on a record's fields, in the view filter structure: `{"all": [{field, op, value}]}` (or `any`). */
export interface ConditionItem {
  field: string;
  op: string;
  value?: unknown;
}
export type ConditionGroup =
  | { all: Array<ConditionItem | ConditionGroup> }
  | { any: Array<ConditionItem | ConditionGroup> };

/**
 * Which records of a type a rule admits:
 * - `all` every record, `none` no record;
 * - `own` those the person created, is assigned to or a person field names (and the records their own tasks, visits
 *   and notes hang on);
 * - `team` those whose team field names a team of theirs, or whose people are of their teams;
 * - `turf` those inside the regions assigned to them or their team (sites, and what hangs on sites);
 * - `parent` those on a record they may read (notes, tasks, documents, visits on their site, a campaign's cards);
 * - `shared` those shared with them: a role field names their role or a team field one of their teams (saved views;
 *   the policy gives it itself, a role cannot set it);
 * - a condition on the record's fields; a combination (`any`: one of them, `all`: each of them).
 */
export type RowRuleName = 'all' | 'none' | 'own' | 'team' | 'turf' | 'parent' | 'shared';
export type RowRule = RowRuleName | { condition: ConditionGroup } | { any: RowRule[] } | { all: RowRule[] };

export type FieldRule = 'hidden' | 'read_only';
export const FIELD_RULES: readonly FieldRule[] = ['hidden', 'read_only'];

/** A role's rules for one record type: rows per action (update and delete never reach past read) and fields. */
export interface TypePolicy {
  read?: RowRule;
  update?: RowRule;
  delete?: RowRule;
  fields?: Record<string, FieldRule>;
}
/** A role's policy: by record type. Types it does not name keep their defaults. */
export type RolePolicy = Record<string, TypePolicy>;

/** The actions the policy answers for each record type (the role screen's columns). */
export const POLICY_ACTIONS = ['read', 'create', 'update', 'delete', 'restore', 'export', 'import', 'history'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];
/** The actions with a row rule of their own: create must land in read, restore goes with delete, the rest with read. */
export type RuleAction = 'read' | 'update' | 'delete';
export const RULE_ACTIONS: readonly RuleAction[] = ['read', 'update', 'delete'];

/** A subject of the policy: the permission strings and the role's own rules. */
export interface PolicySubject extends PermissionSubject {
  policy?: RolePolicy | null;
}

/**
 * Record types that hang on another record and are read with it by default (`parent`), with the column(s) naming it:
 * notes, tasks and documents on any record, a visit on its site, a card on its campaign, a message in its conversation.
 */
export const PARENT_LINKS: Record<string, { type?: string; column: string; typeColumn?: string }> = {
  note: { typeColumn: 'notable_type', column: 'notable_id' },
  task: { typeColumn: 'taskable_type', column: 'taskable_id' },
  document: { typeColumn: 'documentable_type', column: 'documentable_id' },
  attachment: { typeColumn: 'documentable_type', column: 'documentable_id' },
  visit: { type: 'site', column: 'site_id' },
  'campaign-card': { type: 'campaign', column: 'campaign_id' },
  conversation: { typeColumn: 'person_type', column: 'person_id' },
  'assistant-message': { type: 'assistant-thread', column: 'thread_id' },
};

/** Record types read by their owner alone (an owner column): their rule is always `own`, whatever a role says. */
export const PRIVATE_TYPES = ['notification', 'export', 'assistant-thread', 'assistant-message'] as const;

/**
 * Record types read by their owner and by those they are shared with, and changed by their owner alone, whatever a
 * role says: saved views (docs/views.md).
 */
export const SHARED_TYPES = ['view'] as const;

/** Is a record of this type out of someone's reach not there for them at all (404, not 403): private and shared types. */
export const keptFromOthers = (type: string) =>
  (PRIVATE_TYPES as readonly string[]).includes(type) || (SHARED_TYPES as readonly string[]).includes(type);

/**
 * The record types `site:read:turf` (the permission string of "Only their turf") limits to the turf: sites, the
 * contractors and contacts met on them and the campaigns aimed at them; what hangs on them follows (`parent`).
 */
export const TURF_FAMILY = ['site', 'contractor', 'contact', 'campaign'] as const;

/** The rule "their turf" as a role sets it: the turf, and always what is their own. */
export const TURF_OR_OWN: RowRule = { any: ['own', 'turf'] };

/** What the policy needs to know of a record type beyond the role: its permission categories and its parent. */
export interface TypeFacts {
  type: string;
  /** The permission entity (the type unless the resource says otherwise). */
  entity?: string;
  /** The field holding the category of `entity:read:<category>` (site and contractor `type`). */
  categoryField?: string;
}

const isName = (rule: RowRule): rule is RowRuleName => typeof rule === 'string';

/**
 * `all` of the rules, simplified: nested `all` flattened, `all` dropped, `none` wins, and a part that holds wherever
 * another part does left out (own and "own or on a record they read" is own).
 */
export function allOf(...rules: RowRule[]): RowRule {
  // The common case, a rule and `all` (an update rule the role leaves open): nothing to simplify.
  if (rules.length === 2 && rules[1] === 'all' && (typeof rules[0] === 'string' || !('all' in rules[0])))
    return rules[0];
  const flat = rules.flatMap((r) => (typeof r === 'object' && 'all' in r ? r.all : [r]));
  if (flat.includes('none')) return 'none';
  const parts = flat.filter(
    (rule, i) =>
      rule !== 'all' &&
      !flat.some((other, j) => j !== i && ruleWithin(other, rule) && (!ruleWithin(rule, other) || j < i)),
  );
  return parts.length === 0 ? 'all' : parts.length === 1 ? parts[0] : { all: parts };
}

/** `any` of the rules, simplified: nested `any` flattened, `none` dropped, `all` wins, a part within another left out. */
export function anyOf(...rules: RowRule[]): RowRule {
  const flat = rules.flatMap((r) => (typeof r === 'object' && 'any' in r ? r.any : [r]));
  if (flat.includes('all')) return 'all';
  const parts = flat.filter(
    (rule, i) =>
      rule !== 'none' &&
      !flat.some((other, j) => j !== i && ruleWithin(rule, other) && (!ruleWithin(other, rule) || j < i)),
  );
  return parts.length === 0 ? 'none' : parts.length === 1 ? parts[0] : { any: parts };
}

export const sameRule = (a: RowRule, b: RowRule) => JSON.stringify(a) === JSON.stringify(b);

/** The default read rule of a type a role says nothing about: what hangs on a record is read with it, or is one's own. */
export function defaultReadRule(type: string): RowRule {
  return PARENT_LINKS[type] ? { any: ['own', 'parent'] } : 'all';
}

/**
 * The rule a person's role gives for `action` on records of a type, everything included: the role's own rule (or the
 * type's default), the permission strings of SPEC section 6 turned into rules (a category read such as
 * `site:read:union` is a condition on the type's category field; `site:read:turf` without `site:read` is "their turf"
 * on the turf's types), and for update and delete the read rule too (nobody changes what they cannot read).
 * Whether the action is allowed at all is the permission string's business (`can`); this says on which records.
 */
export function effectiveRule(
  subject: PolicySubject | null | undefined,
  facts: TypeFacts,
  action: RuleAction,
): RowRule {
  if (!subject) return 'none';
  const { type } = facts;
  if ((PRIVATE_TYPES as readonly string[]).includes(type)) return PARENT_LINKS[type] ? allOf('own', 'parent') : 'own';
  if ((SHARED_TYPES as readonly string[]).includes(type)) return action === 'read' ? anyOf('own', 'shared') : 'own';
  const own = subject.policy?.[type];
  let read = own?.read ?? defaultReadRule(type);
  if (limitedToTurf(subject) && (TURF_FAMILY as readonly string[]).includes(type)) read = allOf(read, TURF_OR_OWN);
  const entity = facts.entity ?? type;
  if (facts.categoryField) {
    const allowed = permittedCategories(subject, entity, 'read');
    if (allowed !== 'all')
      read = allOf(read, {
        condition: { all: [{ field: facts.categoryField, op: 'in', value: [...allowed].sort() }] },
      });
  }
  if (action === 'read') return read;
  if (action === 'update') return allOf(read, own?.update ?? 'all');
  return allOf(read, own?.delete ?? own?.update ?? 'all');
}

/** The field rules of a person's role for a type (none for a type the role says nothing about). */
export function fieldRules(subject: PolicySubject | null | undefined, type: string): Record<string, FieldRule> {
  return subject?.policy?.[type]?.fields ?? {};
}

/**
 * Does the rule depend on who reads (own, team, turf, shared)? Then it is worked out per person. `parent` depends on
 * the parent types' own rules for the same role: `parentPersonal` says whether one of them does (not known here: assumed).
 */
export function isPersonal(rule: RowRule, parentPersonal = true): boolean {
  if (isName(rule)) return rule === 'parent' ? parentPersonal : rule !== 'all' && rule !== 'none';
  if ('condition' in rule) return false;
  return ('any' in rule ? rule.any : rule.all).some((part) => isPersonal(part, parentPersonal));
}

/** Does the rule mention `name` anywhere (e.g. `turf`, for the words "outside your turf")? */
export function mentions(rule: RowRule, name: RowRuleName): boolean {
  if (isName(rule)) return rule === name;
  if ('condition' in rule) return false;
  return ('any' in rule ? rule.any : rule.all).some((part) => mentions(part, name));
}

// ---- what nobody may grant --------------------------------------------------------------------------------------

/**
 * Is every record `inner` admits also admitted by `outer`, whatever the data (a check on the rules' form: it may say
 * no where the records happen to agree, never yes where they do not)? A condition is within another when it holds
 * each of the other's conditions (and maybe more).
 */
export function ruleWithin(inner: RowRule, outer: RowRule): boolean {
  if (outer === 'all' || inner === 'none' || sameRule(inner, outer)) return true;
  if (typeof inner === 'object' && 'any' in inner) return inner.any.every((part) => ruleWithin(part, outer));
  if (typeof outer === 'object' && 'all' in outer) return outer.all.every((part) => ruleWithin(inner, part));
  if (typeof inner === 'object' && 'all' in inner && inner.all.some((part) => ruleWithin(part, outer))) return true;
  if (typeof outer === 'object' && 'any' in outer) return outer.any.some((part) => ruleWithin(inner, part));
  if (typeof inner === 'object' && 'condition' in inner && typeof outer === 'object' && 'condition' in outer)
    return conditionWithin(inner.condition, outer.condition);
  return false;
}

function conditionWithin(inner: ConditionGroup, outer: ConditionGroup): boolean {
  const items = (group: ConditionGroup) => ('all' in group ? group.all : group.any);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if ('all' in outer)
    return outer.all.every(
      (wanted) =>
        ('all' in inner && inner.all.some((held) => same(held, wanted))) || ('any' in inner && same(inner, wanted)),
    );
  // Outer is one of several: inner within it when each of inner's alternatives is one of outer's.
  return 'any' in inner
    ? inner.any.every((held) => outer.any.some((wanted) => same(held, wanted)))
    : items(inner).some((held) => outer.any.some((wanted) => same(held, wanted)));
}

/** The types two policies speak about, and those the permission strings turn into rules. */
function typesOf(...policies: Array<RolePolicy | null | undefined>): string[] {
  return [...new Set([...policies.flatMap((policy) => Object.keys(policy ?? {})), ...TURF_FAMILY, 'contractor'])];
}

/**
 * What of `role` (permissions and policy) the subject does not hold itself, in words: a row rule wider than their own
 * or a field they may not see or change left open. Empty when they may grant it. The permission strings themselves
 * are `ungrantable`'s (permissions.ts).
 */
export function rulesBeyond(
  subject: PolicySubject | null | undefined,
  role: { permissions: readonly string[]; policy?: RolePolicy | null },
  categoryFields: Record<string, string> = { site: 'type', contractor: 'type' },
): string[] {
  if (!subject) return ['everything'];
  const granted: PolicySubject = { role_id: null, permissions: role.permissions, policy: role.policy ?? {} };
  const beyond: string[] = [];
  for (const type of typesOf(subject.policy, role.policy)) {
    const facts = { type, categoryField: categoryFields[type] };
    if (!can(granted, `${type}:read`, true)) continue;
    for (const action of RULE_ACTIONS) {
      if (!ruleWithin(effectiveRule(granted, facts, action), effectiveRule(subject, facts, action)))
        beyond.push(`${action} ${type} rows`);
    }
    const mine = fieldRules(subject, type);
    const theirs = fieldRules(granted, type);
    for (const [field, rule] of Object.entries(mine)) {
      if (theirs[field] === 'hidden' || theirs[field] === rule) continue;
      beyond.push(`${type} field ${field}`);
    }
  }
  return beyond;
}

// ---- plain words ------------------------------------------------------------------------------------------------

/** How a rule's words name a type and its fields (the schema's names). */
export interface RuleNames {
  singular: string;
  plural: string;
  /** A field's name by slug ("Type"); the slug is used where missing. */
  field?: (slug: string) => string;
  /** A choice's label by field and value ("Union"). */
  choice?: (field: string, value: string) => string;
}

const OP_WORDS: Record<string, string> = {
  eq: 'is',
  neq: 'is not',
  in: 'is one of',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  like: 'contains',
  contains: 'contains',
  null: 'is empty',
  empty: 'is empty',
  not_empty: 'is not empty',
};

function conditionWords(group: ConditionGroup, names: RuleNames): string {
  const items = 'all' in group ? group.all : group.any;
  const parts = items.map((item) => {
    if (!('field' in item)) return `(${conditionWords(item, names)})`;
    const field = names.field?.(item.field) ?? item.field.replace(/_/g, ' ');
    const values = (Array.isArray(item.value) ? item.value : item.value === undefined ? [] : [item.value]).map((v) =>
      names.choice ? names.choice(item.field, String(v)) : String(v),
    );
    if (item.op === 'null') return `${field} ${item.value === false ? 'is not empty' : 'is empty'}`;
    const op = item.op === 'in' && values.length === 1 ? 'is' : (OP_WORDS[item.op] ?? item.op);
    return values.length ? `${field} ${op} ${listWords(values, 'or')}` : `${field} ${op}`;
  });
  return parts.join('all' in group ? ' and ' : ' or ');
}

const listWords = (items: string[], joint: 'and' | 'or') =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${joint} ${items.at(-1)}`;

/** The rule as the words after "the sites": "they created or are assigned, or in their turf". Empty for `all`. */
export function ruleClause(rule: RowRule, names: RuleNames): string {
  if (rule === 'all') return '';
  if (rule === 'none') return 'none';
  if (rule === 'own') return 'they created or are assigned';
  if (rule === 'team') return 'of their team';
  if (rule === 'turf') return 'in their turf';
  if (rule === 'parent') return 'on records they may see';
  if (rule === 'shared') return 'shared with them';
  if ('condition' in rule) return `where ${conditionWords(rule.condition, names)}`;
  if ('any' in rule)
    return listWords(
      rule.any.map((part) => ruleClause(part, names)),
      'or',
    );
  return rule.all.map((part) => ruleClause(part, names)).join(' and ');
}

/** "every site", "no sites", "the sites in their turf": what a rule lets one see, as a noun phrase. */
export function ruleWords(rule: RowRule, names: RuleNames): string {
  if (rule === 'all') return `every ${names.singular.toLowerCase()}`;
  if (rule === 'none') return `no ${names.plural.toLowerCase()}`;
  return `the ${names.plural.toLowerCase()} ${ruleClause(rule, names)}`;
}

/**
 * Why a record is out of a person's reach, for the 403 of a read (`This site is outside your turf.`) or of a change
 * (`You may change only the notes you created or are assigned.`).
 */
export function refusalWords(rule: RowRule, names: RuleNames, action: RuleAction): string {
  const singular = names.singular.toLowerCase();
  if (action === 'read') {
    if (mentions(rule, 'turf')) return `This ${singular} is outside your turf.`;
    return `This ${singular} is not one your role may see: you see ${ruleWords(rule, names)
      .replace(/\btheir\b/g, 'your')
      .replace(/\bthey\b/g, 'you')}.`;
  }
  const verb = action === 'update' ? 'change' : 'delete';
  const clause = ruleClause(rule, names)
    .replace(/\btheir\b/g, 'your')
    .replace(/\bthey\b/g, 'you');
  return `You may ${verb} only the ${names.plural.toLowerCase()} ${clause}.`;
}

/** "See as" (POST /api/access/see-as): what a person would see of one record type, how many and a few by name. */
export interface TypeOutlook {
  type: string;
  resource: string;
  plural: string;
  count: number;
  estimated: boolean;
  /** A few of them by name, among those the one asking may read too. */
  sample: Array<{ id: number; label: string }>;
}

/** What assigning a turf being drawn would do for one person (the turf dialog; POST /api/regions/preview's `people`). */
export interface TurfOutlook {
  id: number;
  name: string;
  role: { id: number; name: string } | null;
  /** Their role's site rule is their turf: the turf scopes them. */
  scoped: boolean;
  /** How many sites they read now, and would with the turf (the same, when it does not scope them). */
  now: number;
  after: number;
}
