import { type RawBuilder, sql } from 'kysely';
import {
  type ConditionGroup,
  type ConditionItem,
  keptFromOthers,
  PARENT_LINKS,
  type RowRule,
} from '../../common/access-rules.js';
import { type FilterOperator, filterCondition, resolveField } from '../records/list-query.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { type Holders, heldBy } from './holders.js';
import { and, fieldHolds, type Gather, or, type Predicate } from './predicate.js';
import { OWN_WORK_TYPES, personFields, pointedAtBySites, referencing, roleFields, teamFields } from './reach.js';
import { siteInTurf, turfSiteIds } from './turf.js';
import { isTeamPerson, teamPeople, type Who } from './who.js';

/**
 * A rule compiled for a record type: given the person (as SQL), the condition on the row `t`. With `ids`, where the
 * rule has a shape an index of its own serves (a turf's sites in `site_regions`, one's own in `record_holders`, an
 * `any` of such), the ids of the records it admits, deleted ones included, read from that index rather than from the
 * records' rows: what a rule reaching these records from others asks (a task on a site they read). Null for the
 * fan-out's members (`perRow`), who are asked about one record.
 */
export type Compiled = ((who: Who) => Predicate) & { ids?: (who: Who) => RawBuilder<number> | null };

/** A rule with the ids of the records it admits read from an index (see Compiled). */
const withIds = (rule: (who: Who) => Predicate, ids: (who: Who) => RawBuilder<number> | null): Compiled =>
  Object.assign(rule, { ids: (who: Who) => (who.perRow ? null : ids(who)) });

const TRUE: Compiled = () => true;
const FALSE: Compiled = () => false;

export interface TypeInfo {
  def: ResourceDefinition;
  fields: Record<string, FieldSpec>;
}

/** What compiling a rule of one type needs to know of the others. */
export interface CompileEnv {
  info: TypeInfo;
  /** The record types there are (for notes, tasks and documents, which may hang on any of them). */
  types(): ResourceDefinition[];
  /** A type's definition and fields by type name. */
  typeInfo(type: string): Promise<TypeInfo | null>;
  /** The same person's read rule of another type, compiled; null when they may not read that type at all. */
  readOf(type: string): Promise<Compiled | null>;
  /** May the same person read records of that type at all (its permission)? */
  mayRead(def: ResourceDefinition): boolean;
  /** The types a note, task or document may hang on, as this person reads them (the same for each such type). */
  parentTypes(): Promise<ParentTypes>;
}

/**
 * The record types a polymorphic child (a note, task, document) of one person may hang on: read whole (`plain`: any
 * record of them, and the hanging types, read with their own rule), or by the person's read rule of the type (`ruled`).
 */
export interface ParentTypes {
  plain: string[];
  ruled: Array<{ def: ResourceDefinition; readable: Compiled }>;
}

/** Worked out once per person's policy and shared by every polymorphic child type (see CompileEnv.parentTypes). */
export async function collectParentTypes(
  types: ResourceDefinition[],
  mayRead: (def: ResourceDefinition) => boolean,
  readOf: (def: ResourceDefinition) => Promise<Compiled>,
): Promise<ParentTypes> {
  const plain: string[] = [];
  const ruled: ParentTypes['ruled'] = [];
  for (const def of types) {
    // Nothing hangs on a private or shared record (work/owners.ts refuses it).
    if (!mayRead(def) || keptFromOthers(def.type)) continue;
    // What hangs on what hangs (a note on a task) is read with the type, not through the task's own rule again.
    if (PARENT_LINKS[def.type]) {
      plain.push(def.type);
      continue;
    }
    const readable = await readOf(def);
    if (readable === TRUE) plain.push(def.type);
    else ruled.push({ def, readable });
  }
  return { plain, ruled };
}

/** `all` and `none` compiled, at once; null for any other rule. */
export function namedRule(rule: RowRule): Compiled | null {
  return rule === 'all' ? TRUE : rule === 'none' ? FALSE : null;
}

/** Compiles a row rule of `env.info`'s type into SQL over its row `t`. */
export async function compileRule(rule: RowRule, env: CompileEnv): Promise<Compiled> {
  if (rule === 'all') return TRUE;
  if (rule === 'none') return FALSE;
  if (rule === 'own') return ownRule(env.info, env);
  if (rule === 'team') return teamRule(env.info);
  if (rule === 'turf') return turfRule(env.info, env, 0);
  if (rule === 'parent') return parentRule(env);
  if (rule === 'shared') return sharedRule(env.info);
  if ('condition' in rule) return conditionRule(rule.condition, env.info);
  const parts = await Promise.all(('any' in rule ? rule.any : rule.all).map((part) => compileRule(part, env)));
  const join = 'any' in rule ? or : and;
  const combined = (who: Who) => join(parts.map((part) => part(who)));
  if (!('any' in rule) || !parts.every((part) => part.ids || part === FALSE)) return combined;
  // One of them: the ids of each part (those admitting nobody left out), appended.
  return withIds(combined, (who) => {
    const sets = parts.filter((part) => part(who) !== false).map((part) => part.ids?.(who) ?? null);
    if (sets.some((set) => !set)) return null;
    return sets.length
      ? sql<number>`${sql.join(sets as RawBuilder<number>[], sql` union all `)}`
      : sql<number>`select null::integer where false`;
  });
}

/**
 * The ids of the records of `def` (as `t`) the compiled rule admits for `who`, deleted ones included: from the rule's
 * own index where it has one (Compiled `ids`), else its condition tested on every row.
 */
function idsOf(def: ResourceDefinition, rule: Compiled, who: Who): RawBuilder<number> {
  return (!def.scope && rule.ids?.(who)) || idsWhere(def, rule(who));
}

// ---- own --------------------------------------------------------------------------------------------------------

/**
 * Theirs: a person field of the record names them, or work of theirs hangs on it (a task assigned to them or made by
 * them, a visit they logged or went on, a note they wrote): "the sites those hang on".
 */
async function ownRule(info: TypeInfo, env: CompileEnv): Promise<Compiled> {
  if (info.def.keepsHolders)
    return withIds(
      (who) => held(info.def, who, { people: who.id }),
      (who) => heldBy(info.def, { people: who.id }),
    );
  const people = personFields(info.fields);
  const work: Array<(who: Who) => RawBuilder<boolean>> = [];
  // Work hangs on no private or shared record (collectParentTypes): only their owner field makes those theirs.
  for (const childType of keptFromOthers(info.def.type) ? [] : OWN_WORK_TYPES) {
    const link = PARENT_LINKS[childType];
    if (!link || childType === info.def.type || (link.type && link.type !== info.def.type)) continue;
    const child = await env.typeInfo(childType);
    if (!child) continue;
    const childPeople = personFields(child.def.fields);
    if (!childPeople.length) continue;
    const ofType = link.typeColumn ? sql` and c.${sql.ref(link.typeColumn)} = ${info.def.type}` : sql``;
    const live = child.def.softDelete ? sql` and c.deleted_at is null` : sql``;
    work.push((who) => {
      const theirs = sql.join(
        childPeople.map(([field, spec]) => fieldHolds(field, spec, 'c', who.id, gatherOf(who, 'values'))),
        sql` or `,
      );
      // For one person, their work's records gathered once; for each member of a role against one record (the
      // fan-out), that record's work asked through its index, not every member's work gathered in turn.
      if (who.perRow)
        return sql<boolean>`exists (select 1 from ${sql.table(child.def.table)} c where c.${sql.ref(link.column)} = t.id${ofType}${live} and (${theirs}))`;
      return sql<boolean>`t.id = any(array(select c.${sql.ref(link.column)} from ${sql.table(child.def.table)} c where c.${sql.ref(link.column)} is not null${ofType}${live} and (${theirs})))`;
    });
  }
  if (!people.length && !work.length) return FALSE;
  return (who) =>
    or([
      ...people.map(([field, spec]) => fieldHolds(field, spec, 't', who.id, gatherOf(who, 'values'))),
      ...work.map((part) => part(who)),
    ]);
}

/** One person's ids are gathered once (predicate.ts Gather); the fan-out's, which change with each member, are not. */
const gatherOf = (who: Who, kind: 'values' | 'query'): Gather => (who.perRow ? undefined : kind);

// ---- team -------------------------------------------------------------------------------------------------------

/** Their team's: a team field names a team of theirs, or a person field names one of their teams' people. */
function teamRule(info: TypeInfo): Compiled {
  if (info.def.keepsHolders) {
    const holders = (who: Who): Holders => ({
      teams: who.teamIds,
      fieldPeople: (person) => isTeamPerson(who, person),
    });
    return withIds(
      (who) => who.hasTeams && held(info.def, who, holders(who)),
      (who) => heldBy(info.def, holders(who)),
    );
  }
  const teams = teamFields(info.fields);
  const people = personFields(info.fields);
  if (!teams.length && !people.length) return FALSE;
  return (who) => {
    if (!who.hasTeams) return false;
    const members = teamPeople(who);
    return or([
      ...teams.map(([field, spec]) => fieldHolds(field, spec, 't', who.teamIds, gatherOf(who, 'values'))),
      ...people.map(([field, spec]) => fieldHolds(field, spec, 't', members, gatherOf(who, 'query'))),
    ]);
  };
}

/**
 * Records of a type that keeps its holders (access/holders.ts) held by these people or teams: one index range of
 * `record_holders`, gathered once for a person; for the fan-out's members, and for a few records read by id (a page's
 * rows read again: gathering thousands of ids to test 25 rows cost more than the page), asked of each record at hand.
 */
function held(def: ResourceDefinition, who: Who, holders: Holders): RawBuilder<boolean> {
  if (who.perRow || who.few) return sql<boolean>`exists (${heldBy(def, holders, sql`t.id`)})`;
  return sql<boolean>`t.id = any(array(${heldBy(def, holders)}))`;
}

// ---- shared -----------------------------------------------------------------------------------------------------

/** Shared with them: a role field names their role, or a team field one of their teams (not their teammates' own). */
function sharedRule(info: TypeInfo): Compiled {
  const roles = roleFields(info.fields);
  const teams = teamFields(info.fields);
  if (!roles.length && !teams.length) return FALSE;
  return (who) =>
    or([
      ...roles.map(([field, spec]) => fieldHolds(field, spec, 't', who.roleId, gatherOf(who, 'values'))),
      ...(who.hasTeams
        ? teams.map(([field, spec]) => fieldHolds(field, spec, 't', who.teamIds, gatherOf(who, 'values')))
        : []),
    ]);
}

// ---- turf -------------------------------------------------------------------------------------------------------

/**
 * In their turf: a site inside one of their regions; any other record through what ties it to sites: a relation to a
 * site (a visit's site, a contact's sites) or to a contractor working on one, being on a site's contractor list or its
 * general contractor, or hanging on a record in the turf (a note on a turf site). A type tied to no site is in nobody's
 * turf.
 */
async function turfRule(info: TypeInfo, env: CompileEnv, depth: number): Promise<Compiled> {
  if (info.def.table === 'sites') return withIds((who) => siteInTurf(who, 't'), turfSiteIds);
  if (depth > 2) return FALSE;
  const sites = await env.typeInfo('site');
  const parts: Compiled[] = [];
  const toSites = referencing(info.fields, 'sites');
  for (const [field, spec] of toSites) parts.push((who) => fieldHolds(field, spec, 't', turfSiteIds(who)));
  const contractors = await env.typeInfo('contractor');
  if (contractors && info.def.table !== 'contractors') {
    const inTurf = await turfRule(contractors, env, depth + 1);
    for (const [field, spec] of referencing(info.fields, 'contractors'))
      parts.push((who) => fieldHolds(field, spec, 't', idsOf(contractors.def, inTurf, who)));
  }
  // Pointed at by the turf's sites (contractors: on a site's list, or its general contractor), when nothing else ties it.
  if (!parts.length && sites && !['users', 'teams'].includes(info.def.table)) {
    for (const [field, spec] of pointedAtBySites(info.def, sites.fields)) {
      const pivot = typeof spec.storage === 'object' ? spec.storage : null;
      const ids = pivot
        ? (who: Who) =>
            sql`select pl.${sql.ref(pivot.otherKey)} from ${sql.table(pivot.pivot)} pl where pl.${sql.ref(pivot.ownKey)} in (${turfSiteIds(who)})`
        : (who: Who) =>
            sql`select ts.${sql.ref(field)} from sites ts where ts.id in (${turfSiteIds(who)}) and ts.${sql.ref(field)} is not null`;
      parts.push((who) => sql<boolean>`t.id in (${ids(who)})`);
    }
  }
  const link = PARENT_LINKS[info.def.type];
  if (link && !toSites.some(([field]) => field === link.column)) {
    const parentTypes = link.type
      ? [link.type]
      : env
          .types()
          .filter((def) => !PARENT_LINKS[def.type])
          .map((def) => def.type);
    for (const parentType of [...new Set(parentTypes)]) {
      const parent = await env.typeInfo(parentType);
      if (!parent) continue;
      const inTurf = await turfRule(parent, env, depth + 1);
      if (inTurf === FALSE) continue;
      const ofType = link.typeColumn ? sql`t.${sql.ref(link.typeColumn)} = ${parentType} and ` : sql``;
      parts.push((who) => sql<boolean>`(${ofType}t.${sql.ref(link.column)} in (${idsOf(parent.def, inTurf, who)}))`);
    }
  }
  if (!parts.length) return FALSE;
  return (who) => or(parts.map((part) => part(who)));
}

/** The ids of the rows of `def` (as `t`) where `predicate` holds, deleted ones included. */
function idsWhere(def: ResourceDefinition, predicate: Predicate): RawBuilder<number> {
  const scope = def.scope ? sql` and t.${sql.ref(def.scope.column)} = ${def.scope.value}` : sql``;
  const where = typeof predicate === 'boolean' ? sql.raw(String(predicate)) : predicate;
  return sql<number>`select t.id from ${sql.table(def.table)} t where ${where}${scope}`;
}

// ---- parent -----------------------------------------------------------------------------------------------------

/**
 * The fan-out's record names its parent: its rule is asked of that one parent row, not of every row the member may
 * read (which, for each member, read every site of theirs). Undefined for everyone else.
 */
function parentNamed(who: Who, type: string, column: string): [RawBuilder<boolean>] | undefined {
  if (who.row?.type !== type) return undefined;
  const id = who.row.values[column];
  return Number.isInteger(id) ? [sql<boolean>`t.id = ${id as number}`] : undefined;
}

/**
 * On a record they may read: a note, task or document on any record type they read (by its rule), a visit on a site
 * they read, a card of a campaign they read. Records on nothing are read by whoever reads the type.
 */
async function parentRule(env: CompileEnv): Promise<Compiled> {
  const link = PARENT_LINKS[env.info.def.type];
  if (!link) return TRUE;
  if (link.type) {
    const parent = await env.typeInfo(link.type);
    const readable = parent ? await env.readOf(link.type) : null;
    if (!parent || !readable) return FALSE;
    // A message is read with its conversation while the conversation is there (it goes with it when deleted).
    const live = link.type === 'assistant-thread';
    return (who) => {
      const predicate = readable(who);
      if (predicate === true && !live) return true;
      const one = parentNamed(who, env.info.def.type, link.column);
      const ids =
        live || one !== undefined
          ? idsWhere(
              parent.def,
              and([...(live ? [sql<boolean>`t.deleted_at is null`] : []), ...(one ?? []), predicate]),
            )
          : idsOf(parent.def, readable, who);
      return sql<boolean>`t.${sql.ref(link.column)} in (${ids})`;
    };
  }
  const typeColumn = sql.ref(`t.${link.typeColumn}`);
  const parents = await env.parentTypes();
  const plain = parents.plain.filter((type) => type !== env.info.def.type);
  const { ruled } = parents;
  const underRule = ({ def, readable }: (typeof ruled)[number], who: Who, typeKnown: boolean): Predicate => {
    const predicate = readable(who);
    if (predicate === false || (predicate === true && typeKnown)) return predicate;
    const ofType = sql<boolean>`${typeColumn} = ${def.type}`;
    if (predicate === true) return ofType;
    const one = parentNamed(who, env.info.def.type, link.column);
    const ids = one ? idsWhere(def, and([...one, predicate])) : idsOf(def, readable, who);
    const under = sql<boolean>`t.${sql.ref(link.column)} in (${ids})`;
    return typeKnown ? under : sql<boolean>`(${ofType} and ${under})`;
  };
  return (who) => {
    // The fan-out's record names its parent's type: only that type's rule can admit it.
    const values = who.row?.type === env.info.def.type ? who.row.values : undefined;
    const typeKey = link.typeColumn;
    if (values && typeKey && typeKey in values) {
      const type = values[typeKey];
      if (type === null || plain.includes(type as string)) return true;
      const parent = ruled.find(({ def }) => def.type === type);
      return parent ? underRule(parent, who, true) : false;
    }
    return or([
      sql<boolean>`${typeColumn} is null`,
      ...(plain.length ? [sql<boolean>`${typeColumn} in (${sql.join(plain)})`] : []),
      ...ruled.map((parent) => underRule(parent, who, false)),
    ]);
  };
}

// ---- condition --------------------------------------------------------------------------------------------------

/** The view filter's operators a condition may use, as the list query's filter operators. */
const OPERATORS: Record<string, { operator: FilterOperator; value?: unknown }> = {
  eq: { operator: 'eq' },
  neq: { operator: 'neq' },
  gt: { operator: 'gt' },
  gte: { operator: 'gte' },
  lt: { operator: 'lt' },
  lte: { operator: 'lte' },
  in: { operator: 'in' },
  like: { operator: 'like' },
  contains: { operator: 'like' },
  null: { operator: 'null' },
  empty: { operator: 'null', value: true },
  not_empty: { operator: 'null', value: false },
};
export const CONDITION_OPERATORS = Object.keys(OPERATORS);

/**
 * A condition on the record's fields, in the view filter's structure (`{"all": [{field, op, value}]}`), through the
 * list query's filter SQL (the one filter compiler). A field deleted since the rule was written admits nothing.
 */
export function conditionRule(group: ConditionGroup, info: TypeInfo): Compiled {
  let predicate: Predicate;
  try {
    predicate = conditionSql(group, info.fields);
  } catch {
    predicate = false;
  }
  return () => predicate;
}

/** The SQL of a condition group; throws (a ValidationError) on an unknown field, operator or value. */
export function conditionSql(group: ConditionGroup, fields: Record<string, FieldSpec>): Predicate {
  const items = 'all' in group ? group.all : group.any;
  const parts = items.map((item) =>
    'field' in item ? conditionItemSql(item, fields) : conditionSql(item as ConditionGroup, fields),
  );
  return 'all' in group ? and(parts) : or(parts);
}

function conditionItemSql(item: ConditionItem, fields: Record<string, FieldSpec>): Predicate {
  const mapped = OPERATORS[item.op];
  if (!mapped) throw new Error(`Unknown operator ${item.op}`);
  const spec = resolveField(item.field, fields, 'filter');
  const value =
    'value' in mapped
      ? mapped.value
      : mapped.operator === 'in' && !Array.isArray(item.value)
        ? [item.value]
        : item.value;
  return filterCondition({ field: item.field, operator: mapped.operator, value }, spec) as RawBuilder<boolean>;
}
