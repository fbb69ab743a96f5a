import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import {
  type ConditionGroup,
  effectiveRule,
  type FieldRule,
  fieldRules,
  isPersonal,
  mentions,
  PARENT_LINKS,
  type PolicySubject,
  type RowRule,
  type RuleAction,
  refusalWords,
  sameRule,
  type TypeFacts,
} from '../../common/access-rules.js';
import { type Action, can, canOnCategory, permittedCategories } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { forbidden, unauthenticated, ValidationError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceRegistry } from '../records/registry.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { schemaStore } from '../schemas/schema-store.js';
import {
  type Compiled,
  type CompileEnv,
  collectParentTypes,
  compileRule,
  namedRule,
  type ParentTypes,
  type TypeInfo,
} from './compile.js';
import type { KeptTurfs } from './kept-turfs.js';
import { and, asSql, not, type Predicate } from './predicate.js';
import { personFields, referencing, teamFields } from './reach.js';
import { regionsInTurf, type SiteRegions } from './turf.js';
import { regionsAsTurf, type Who, whoIs } from './who.js';

/** What a person's role may see and change of a record type's fields. */
export interface FieldMask {
  hidden: ReadonlySet<string>;
  readOnly: ReadonlySet<string>;
}

/** A role's policy for one record type, compiled: its rules per action as SQL, and its field mask. */
export interface TypeAccess {
  def: ResourceDefinition;
  facts: TypeFacts;
  rules: Record<RuleAction, RowRule>;
  compiled: Record<RuleAction, Compiled>;
  /** The turf alone, when the read rule has one: records read through another part (one's own) are "outside your turf". */
  turf: Compiled | null;
  /** Does the read rule depend on who reads? Worked out when first asked (`AccessPolicy.personal`). */
  personal?: boolean;
  mask: FieldMask;
}

/** A built-in field without a name, named from its slug: `due_date` is "Due date". */
const sentenceCase = (slug: string) => {
  const words = slug.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Who the policy is worked out for: a signed-in person, or a role alone (the realtime fan-out). */
export type Subject = PolicySubject;

const MAX_COMPILED = 5_000;
/**
 * Built rules kept in all (one per person, type and action, and per turf): past this many they start again. A bound on
 * memory, not a need: a rule's SQL is one to twenty kilobytes of objects.
 */
const MAX_BUILT = 10_000;

/**
 * THE access policy (docs/security.md "The access policy"; DESIGN.md 18). For each role and record type it compiles,
 * once, the rule of each action (read, update, delete; create lands in read; restore goes with delete) into SQL over
 * the record's row, and the field rules into a mask; kept until the role changes (its permissions and policy are the
 * key) or any record type does (the schema cache's invalidation). Every read and write path asks it, and only it:
 * the record service's reads and writes, the map, reports, the activity feed and history, exports, imports, the
 * assistant and the realtime fan-out.
 */
export class AccessPolicy {
  /** Per role key, per record type definition. */
  private readonly compiled = new Map<string, Map<ResourceDefinition, Promise<TypeAccess>>>();
  private compiledCount = 0;
  /** Per role key: the types a note, task or document may hang on (compile.ts ParentTypes), kept with `compiled`. */
  private readonly parents = new Map<string, ParentTypes>();
  private readonly infos = new Map<ResourceDefinition, TypeInfo>();
  /** Moved by each `clear` and each change of the schema: what was read before one is not kept after it. */
  private generation = 0;
  private schemaGeneration = 0;
  private readonly keys = new WeakMap<object, { policyRef: unknown; policy: string; key: string }>();
  /** Each person's rules as built (`where`), kept with the compiled policy they came from: a new one starts afresh. */
  private built = new WeakMap<TypeAccess, Map<string, { predicate: Predicate; gathersTurf: boolean }>>();
  private builtCount = 0;

  constructor(
    private readonly records: RecordService,
    private readonly registry: ResourceRegistry,
    private readonly turfs: KeptTurfs,
  ) {
    schemaStore(records.db).onInvalidate(() => {
      this.clear();
      this.infos.clear();
      this.schemaGeneration++;
    });
  }

  /**
   * Forget every compiled policy, as a change of a role makes it compile again (under its new key): the record types'
   * fields, which only a change of the schema changes, are kept.
   */
  clear() {
    this.compiled.clear();
    this.compiledCount = 0;
    this.parents.clear();
    this.generation++;
  }

  /**
   * A type with its fields (custom ones included), as every compile reads them: kept once read, until the schema
   * changes. Only what was read is shared, never a read still on its way: that one runs on its caller's transaction,
   * which another caller's statements would wait behind.
   */
  private async typeInfoOf(def: ResourceDefinition, db: Kysely<DB> | undefined): Promise<TypeInfo> {
    const known = this.infos.get(def);
    if (known) return known;
    const schema = this.schemaGeneration;
    const info = { def, fields: await this.records.fields(def, db ?? this.records.db) };
    // Read before a change of the schema that came meanwhile: good for this compile, not to keep.
    if (schema === this.schemaGeneration) this.infos.set(def, info);
    return info;
  }

  // ---- actions ------------------------------------------------------------------------------------------------

  /** The permission entity of a type. */
  entityOf(def: ResourceDefinition) {
    return def.permission ?? def.type;
  }

  /**
   * May the person do `action` on records of `def` at all (the permission strings of SPEC section 6), and for a type
   * with categories, on one of this category? Throws 401 signed out, 403 otherwise.
   */
  authorize(user: AuthUser | null, def: ResourceDefinition, action: Action, category?: string | null): asserts user {
    if (!user) throw unauthenticated();
    if (!this.may(user, def, action, category))
      throw forbidden(`You do not have permission to ${action} ${def.name.replace(/-/g, ' ')}.`);
  }

  may(subject: Subject, def: ResourceDefinition, action: Action, category?: string | null): boolean {
    const entity = this.entityOf(def);
    if (!def.categoryColumn) return can(subject, `${entity}:${action}`);
    return category === undefined
      ? can(subject, `${entity}:${action}`, true)
      : canOnCategory(subject, entity, action, category);
  }

  /** May the person read any record of the type (any category of it, or their turf)? */
  mayRead(subject: Subject | null | undefined, def: ResourceDefinition): boolean {
    return Boolean(subject) && can(subject, `${this.entityOf(def)}:read`, true);
  }

  /** The categories of `def` the person reads (`site:read:union`...): 'all', or the list (none: empty). */
  categories(subject: Subject, def: ResourceDefinition): 'all' | string[] {
    return def.categoryColumn ? permittedCategories(subject, this.entityOf(def), 'read') : 'all';
  }

  // ---- compiled rules ------------------------------------------------------------------------------------------

  /** The role's policy for a record type, compiled (cached). `db`: the transaction the caller is in, if any. */
  of(subject: Subject, def: ResourceDefinition, db?: Kysely<DB>): Promise<TypeAccess> {
    return this.kept(this.subjectKey(subject), def, () => this.compile(subject, def, db));
  }

  /**
   * The compiled policy kept under `key` for this very definition (a changed record type is a new definition object,
   * compiled again), or compiled now. Not async: the policy is asked several times in every request, and a kept one
   * is answered with its own promise, nothing made.
   */
  private kept(key: string, def: ResourceDefinition, compile: () => Promise<TypeAccess>): Promise<TypeAccess> {
    let byType = this.compiled.get(key);
    const known = byType?.get(def);
    if (known) return known;
    if (this.compiledCount > MAX_COMPILED) {
      this.clear();
      byType = undefined;
    }
    if (!byType) this.compiled.set(key, (byType = new Map()));
    const entry = compile();
    byType.set(def, entry);
    this.compiledCount++;
    entry.catch(() => {
      if (byType.get(def) === entry) byType.delete(def);
    });
    return entry;
  }

  private async compile(
    subject: Subject,
    def: ResourceDefinition,
    db: Kysely<DB> | undefined,
    withTurf: 'turf' | 'if-ruled' = 'if-ruled',
  ): Promise<TypeAccess> {
    const info = this.infos.get(def) ?? (await this.typeInfoOf(def, db));
    const facts: TypeFacts = { type: def.type, entity: def.permission, categoryField: def.categoryColumn };
    // Made when a rule needs it (most rules are `all`).
    const env = (): CompileEnv => ({
      info,
      types: () => this.registry.all(),
      mayRead: (other: ResourceDefinition) => this.mayRead(subject, other),
      typeInfo: (type: string) => {
        const other = this.registry.byType(type);
        return other ? this.typeInfoOf(other, db) : Promise.resolve(null);
      },
      // A rule that reaches another type (a note's parent) reads that type's own read rule for the same person.
      readOf: async (type: string) => {
        const other = this.registry.byType(type);
        if (!other || other === def || !this.mayRead(subject, other)) return null;
        return (await this.of(subject, other, db)).compiled.read;
      },
      parentTypes: () => this.parentTypesOf(subject, db),
    });
    let madeEnv: CompileEnv | undefined;
    const rules: Record<RuleAction, RowRule> = {
      read: effectiveRule(subject, facts, 'read'),
      update: effectiveRule(subject, facts, 'update'),
      delete: effectiveRule(subject, facts, 'delete'),
    };
    // Each distinct rule compiled once: update and delete are mostly the read rule (often the very same object), and a
    // turf read rule is the turf.
    const done: Array<{ rule: RowRule; compiled: Compiled }> = [];
    const compileOnce = async (rule: RowRule) => {
      for (const known of done) if (known.rule === rule || sameRule(known.rule, rule)) return known.compiled;
      const compiled = await compileRule(rule, (madeEnv ??= env()));
      done.push({ rule, compiled });
      return compiled;
    };
    // `all` and `none`, most types' rules, need nothing awaited.
    const compiled: Record<RuleAction, Compiled> = {
      read: namedRule(rules.read) ?? (await compileOnce(rules.read)),
      update: namedRule(rules.update) ?? (await compileOnce(rules.update)),
      delete: namedRule(rules.delete) ?? (await compileOnce(rules.delete)),
    };
    const turfRuled = mentions(rules.read, 'turf');
    const turf = withTurf === 'turf' || turfRuled ? await compileOnce('turf') : null;
    return {
      def,
      facts,
      rules,
      compiled,
      turf,
      mask: maskOf(fieldRules(subject, def.type), info.fields, def.derivedFields),
    };
  }

  /** Kept once worked out (see typeInfoOf), for the role's key, as long as its compiled policies are. */
  private async parentTypesOf(subject: Subject, db: Kysely<DB> | undefined): Promise<ParentTypes> {
    const key = this.subjectKey(subject);
    const known = this.parents.get(key);
    if (known) return known;
    const generation = this.generation;
    const parents = await collectParentTypes(
      this.registry.all(),
      (other) => this.mayRead(subject, other),
      async (other) => (await this.of(subject, other, db)).compiled.read,
    );
    if (generation === this.generation) this.parents.set(key, parents);
    return parents;
  }

  /**
   * Does the person's read rule of the type depend on who they are (own, team, turf, or a parent type's rule that
   * does)? The realtime fan-out then tests each member; otherwise the role's channel hears it. Kept with the compiled
   * rule, worked out when first asked rather than with every compile.
   */
  async personal(subject: Subject, def: ResourceDefinition, db?: Kysely<DB>): Promise<boolean> {
    const access = await this.of(subject, def, db);
    access.personal ??= isPersonal(
      access.rules.read,
      mentions(access.rules.read, 'parent') && (await this.parentPersonal(subject, def, db)),
    );
    return access.personal;
  }

  /**
   * Does a `parent` rule of `def` depend on who reads: is the role's read rule of one of the types its records hang on
   * (a visit's site, a note's record of any type) personal? A note on records everyone in the role reads alike is not.
   */
  private async parentPersonal(
    subject: Subject,
    def: ResourceDefinition,
    db: Kysely<DB> | undefined,
  ): Promise<boolean> {
    const link = PARENT_LINKS[def.type];
    if (!link) return false;
    const parents = link.type
      ? [this.registry.byType(link.type)].filter((other): other is ResourceDefinition => Boolean(other))
      : this.registry.all().filter((other) => other !== def && !PARENT_LINKS[other.type]);
    for (const parent of parents) {
      if (this.mayRead(subject, parent) && (await this.personal(subject, parent, db))) return true;
    }
    return false;
  }

  /**
   * A key two people share only when they read the same records and fields of every type in `defs`: their role's
   * key (permissions and policy: categories and field rules), with their own id when the read rule of one of those
   * types depends on who reads (their own, team, turf). What is built from such reads (the assistant's vocabulary)
   * may then serve everyone with that key, and never someone whose reads differ.
   */
  async readerKey(user: AuthUser, defs: Iterable<ResourceDefinition>): Promise<string> {
    const role = this.subjectKey(user);
    for (const def of defs)
      if (this.mayRead(user, def) && (await this.personal(user, def))) return `${role}|person:${user.id}`;
    return role;
  }

  /** A role's identity for the cache: its id, permissions and policy. */
  private subjectKey(subject: Subject): string {
    const holder = subject.permissions as object;
    const known = this.keys.get(holder);
    // The same policy object as last time: no need to read it again (a role loaded once serves many requests).
    if (known && known.policyRef === subject.policy && subject.policy) return known.key;
    const policy = JSON.stringify(subject.policy ?? {});
    if (known?.policy === policy) return known.key;
    const key = createHash('sha1').update(subject.permissions.join(',')).update('|').update(policy).digest('base64url');
    this.keys.set(holder, { policyRef: subject.policy, policy, key });
    return key;
  }

  // ---- the person's rows -------------------------------------------------------------------------------------

  /** The rule for `action` as SQL over the row `t`, for this person (`who`: for another person than `user`). */
  async where(
    user: Subject,
    def: ResourceDefinition,
    action: RuleAction = 'read',
    options: { db?: Kysely<DB>; who?: Who } = {},
  ): Promise<Predicate> {
    const access = await this.of(user, def, options.db);
    const rule = access.compiled[action];
    const who = options.who ?? whoIs(user as AuthUser);
    if (who.perRow || who.turfIds || who.row || !who.key)
      return options.db ? this.gathered(rule, who, user, options.db) : rule(who);
    // The same person's rule, built before from the same compiled policy: its SQL again, not built again.
    if (this.builtCount >= MAX_BUILT) {
      this.built = new WeakMap();
      this.builtCount = 0;
    }
    let built = this.built.get(access);
    if (!built) this.built.set(access, (built = new Map()));
    const key = `${action}|${options.db ? '' : 'alone|'}${who.key}`;
    let kept = built.get(key);
    if (!kept) {
      kept = options.db ? this.gatherer(rule, who) : { predicate: rule(who), gathersTurf: false };
      built.set(key, kept);
      this.builtCount++;
    }
    if (!kept.gathersTurf || !options.db) return kept.predicate;
    const turfIds = await this.turfIds(options.db, user as AuthUser);
    const withTurf = `${key}|${turfIds.join(',')}`;
    let predicate = built.get(withTurf)?.predicate;
    if (predicate === undefined) {
      predicate = rule({ ...who, turfIds });
      built.set(withTurf, { predicate, gathersTurf: false });
      this.builtCount++;
    }
    return predicate;
  }

  /** The rule for `who`, and whether it gathers the person's turf (then it is built again naming its regions). */
  private gatherer(rule: Compiled, who: Who): { predicate: Predicate; gathersTurf: boolean } {
    let gathersTurf = false;
    const predicate = rule({
      ...who,
      onTurf: () => {
        gathersTurf = true;
      },
    });
    return { predicate, gathersTurf };
  }

  /** The rule for `who`, the turf's regions read once and named in it rather than asked in each place it gathers them. */
  private async gathered(rule: Compiled, who: Who, user: Subject, db: Kysely<DB>): Promise<Predicate> {
    if (who.perRow || who.turfIds) return rule(who);
    const { predicate, gathersTurf } = this.gatherer(rule, who);
    if (!gathersTurf) return predicate;
    return rule({ ...who, turfIds: await this.turfIds(db, user as AuthUser) });
  }

  /** The ids of the person's turf regions (access/kept-turfs.ts). */
  turfIds(db: Kysely<DB>, user: Pick<AuthUser, 'id' | 'team_id' | 'team_ids'>): Promise<number[]> {
    return this.turfs.ids(db, user.id, whoIs(user));
  }

  /**
   * The rows of `def` the person may read (or change, with `action`), as `t`: soft-deleted rows as `trashed` says,
   * the type's own rows of a shared table (`scope`), and the rule. `user` null: the server itself, every row. `few`:
   * the caller reads a few rows by id (Who `few`).
   */
  async rows(
    db: Kysely<DB>,
    def: ResourceDefinition,
    user: AuthUser | null,
    trashed: 'without' | 'with' | 'only' = 'without',
    action: RuleAction = 'read',
    few = false,
  ) {
    const query = this.allRows(db, def, trashed);
    if (!user) return query;
    const predicate = await this.where(user, def, action, { db, who: whoIs(user, few) });
    return predicate === true ? query : query.where(asSql(predicate));
  }

  /** Every row of `def` as `t` (its own of a shared table), soft-deleted ones as `trashed` says. */
  private allRows(db: Kysely<DB>, def: ResourceDefinition, trashed: 'without' | 'with' | 'only') {
    let query = dynamicTables(db).selectFrom(`${def.table} as t`);
    if (def.softDelete && trashed === 'without') query = query.where('t.deleted_at', 'is', null);
    if (def.softDelete && trashed === 'only') query = query.where('t.deleted_at', 'is not', null);
    if (def.scope) query = query.where(`t.${def.scope.column}`, '=', def.scope.value);
    return query;
  }

  /** The rule as a condition on another alias (`alias.id in (...)`), for a report's or the feed's own SQL. */
  async condition(user: AuthUser, def: ResourceDefinition, alias: string, trashed: 'without' | 'with' = 'without') {
    if (!this.mayRead(user, def)) return sql<boolean>`false`;
    const predicate = await this.where(user, def);
    if (predicate === false) return sql<boolean>`false`;
    const parts = [];
    if (def.softDelete && trashed === 'without') parts.push(sql<boolean>`${sql.ref(`${alias}.deleted_at`)} is null`);
    if (predicate !== true || def.scope)
      parts.push(
        sql<boolean>`${sql.ref(`${alias}.id`)} in (${(await this.rows(this.records.db, def, user, 'with')).select('t.id')})`,
      );
    return parts.length ? sql<boolean>`(${sql.join(parts, sql` and `)})` : sql<boolean>`true`;
  }

  /** Does everyone who reads the type read the same rows as this person (no rule beyond soft delete)? */
  async readsAlike(user: Subject | null, def: ResourceDefinition): Promise<boolean> {
    if (!user) return true;
    return (await this.of(user, def)).rules.read === 'all';
  }

  /**
   * The categories the person reads when that is all their rule says ('all', or the list), or null when their rule says
   * more (their own, a team, a turf, a condition): only the record service's query then says which rows.
   */
  async onlyCategories(user: Subject, def: ResourceDefinition): Promise<'all' | string[] | null> {
    if (def.scope) return null;
    const rule = (await this.of(user, def)).rules.read;
    const categories = this.categories(user, def);
    if (rule === 'all') return categories;
    return categories !== 'all' && isCategoryCondition(rule, def) ? categories : null;
  }

  /**
   * Does the person's rule pick a part of the table no sort index follows (a turf, their own, their team's), so that a
   * list reads its matches once (records/list-query.ts readPage's one pass) rather than walking the sort's index?
   */
  async narrow(user: Subject | null, def: ResourceDefinition, depth = 0): Promise<boolean> {
    if (!user) return false;
    const rule = (await this.of(user, def)).rules.read;
    if (mentions(rule, 'turf')) return true;
    if (!isPersonal(rule)) return false;
    return !mentions(rule, 'parent') || (depth < 2 && (await this.parentsNarrow(user, def, depth)));
  }

  /**
   * Are the records that `def`'s records hang on, of every type the person reads, a small part of theirs (each type's
   * rule narrow): a task list of a turf-scoped person (the tasks on their turf's sites) then reads its matches once too.
   * A type read with no rule (one of those that hang on others, read with the type) is not.
   */
  private async parentsNarrow(subject: Subject, def: ResourceDefinition, depth: number): Promise<boolean> {
    const link = PARENT_LINKS[def.type];
    if (!link) return false;
    const parents = link.type
      ? [this.registry.byType(link.type)].filter((other): other is ResourceDefinition => Boolean(other))
      : this.registry.all().filter((other) => other !== def);
    let any = false;
    for (const parent of parents) {
      if (!this.mayRead(subject, parent)) continue;
      if (!link.type && PARENT_LINKS[parent.type]) return false;
      if (!(await this.narrow(subject, parent, depth + 1))) return false;
      any = true;
    }
    return any;
  }

  /** Is the person's reading of the type limited to a turf (with their own, by the usual rule)? */
  async turfLimited(user: Subject | null, def: ResourceDefinition): Promise<boolean> {
    return Boolean(user) && mentions((await this.of(user!, def)).rules.read, 'turf');
  }

  /** The person's categories, and their read rule without them when it is one rule (else `only` undefined). */
  private async readBesideCategories(user: Subject, def: ResourceDefinition) {
    const rule = (await this.of(user, def)).rules.read;
    const categories = this.categories(user, def);
    let rest: RowRule[] = typeof rule === 'object' && 'all' in rule ? rule.all : [rule];
    if (categories !== 'all') rest = rest.filter((part) => !isCategoryCondition(part, def));
    return { categories, only: rest.length === 1 ? rest[0] : undefined };
  }

  /**
   * The person's read rule when it is their turf, alone or with their own records, and maybe with categories (the
   * shapes `site:read:turf` and "Their turf" give): what a list may read from a region's own index of its sites
   * (access/turf-page.ts). Null for any other rule.
   */
  async turfShape(
    user: Subject,
    def: ResourceDefinition,
  ): Promise<{ categories: 'all' | string[]; own: boolean } | null> {
    const { categories, only } = await this.readBesideCategories(user, def);
    if (!only) return null;
    if (only === 'turf') return { categories, own: false };
    if (
      typeof only === 'object' &&
      'any' in only &&
      only.any.length === 2 &&
      only.any.includes('turf') &&
      only.any.includes('own')
    )
      return { categories, own: true };
    return null;
  }

  /**
   * The person's read rule when it is their own, their team's, or either, and maybe categories, of a type that keeps
   * its holders: what a list may read from `record_holders` alone (access/held-page.ts). Null for any other rule.
   */
  async heldShape(
    user: Subject,
    def: ResourceDefinition,
  ): Promise<{ categories: 'all' | string[]; own: boolean; team: boolean } | null> {
    if (!def.keepsHolders || def.scope) return null;
    const { categories, only } = await this.readBesideCategories(user, def);
    if (!only) return null;
    const parts = typeof only === 'object' && 'any' in only ? only.any : [only];
    if (!parts.length || !parts.every((part) => part === 'own' || part === 'team')) return null;
    return { categories, own: parts.includes('own'), team: parts.includes('team') };
  }

  /** The field rules of the person's role for the type. */
  async mask(user: Subject | null, def: ResourceDefinition, db?: Kysely<DB>): Promise<FieldMask> {
    return user ? (await this.of(user, def, db)).mask : NO_MASK;
  }

  /** Why a record is out of reach, in words (`This site is outside your turf.`). */
  async refusal(user: Subject, def: ResourceDefinition, action: RuleAction, db?: Kysely<DB>): Promise<string> {
    const access = await this.of(user, def, db);
    return refusalWords(access.rules[action], await this.namesOf(def, db), action);
  }

  /** How words name a type and its fields: the schema's names. */
  async namesOf(def: ResourceDefinition, db?: Kysely<DB>) {
    const snapshot = await schemaStore(this.records.db).snapshot(db);
    const schema = snapshot.byType.get(def.type);
    const fields = await this.records.fields(def, db ?? this.records.db);
    return {
      singular: schema?.name_singular ?? def.singular,
      plural: schema?.name_plural ?? `${def.singular}s`,
      field: (slug: string) => fields[slug]?.name ?? sentenceCase(slug),
      choice: (field: string, value: string) => fields[field]?.choiceLabels?.[value] ?? value,
    };
  }

  /**
   * Is this record (of `def`, id `id`) inside the person's rule for `action`? Soft-deleted records count (the caller
   * says whether those are to be found at all).
   */
  async admits(db: Kysely<DB>, def: ResourceDefinition, user: AuthUser, id: number, action: RuleAction = 'read') {
    if ((await this.where(user, def, action, { db })) === true) return true;
    const query = (await this.rows(db, def, user, 'with', action)).select('t.id').where('t.id', '=', id);
    return Boolean(await query.executeTakeFirst());
  }

  /**
   * Refuses (422 on the field) a value the person's role may not set: a field it hides or keeps read-only, sent on a
   * create, or changed on an update (the value the record holds may be sent back as it is).
   */
  async checkFieldRules(
    user: Subject,
    def: ResourceDefinition,
    values: Record<string, unknown>,
    existing?: Record<string, unknown>,
  ) {
    const { readOnly, hidden } = await this.mask(user, def);
    if (!readOnly.size) return;
    const errors: Record<string, string[]> = {};
    const names = await this.namesOf(def);
    for (const [field, value] of Object.entries(values)) {
      if (!readOnly.has(field)) continue;
      if (existing ? sameValue(value, existing[field]) : isEmpty(value) || value === false) continue;
      errors[field] = [
        hidden.has(field)
          ? `Your role may not see or set the ${names.field(field)} of ${names.plural.toLowerCase()}.`
          : `Your role may not change the ${names.field(field)} of ${names.plural.toLowerCase()}.`,
      ];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  /**
   * After a write, in its transaction: the records written must still be inside the person's rule for `action` (a
   * create: read; an update: update). Nobody moves a record out of their own reach, or makes one outside it: 422 in
   * the rule's words, on the fields the rule looks at.
   */
  async assertLands(
    db: Kysely<DB>,
    def: ResourceDefinition,
    user: AuthUser,
    ids: readonly number[],
    action: RuleAction,
    /** The one record written, as it now is: a rule may decide from its values what its SQL would (a note's parent type). */
    written?: Readonly<Record<string, unknown>>,
  ) {
    if (!ids.length) return;
    const who: Who = {
      ...whoIs(user, true),
      ...(written && ids.length === 1 ? { row: { type: def.type, values: written } } : {}),
    };
    const predicate = await this.where(user, def, action, { db, who });
    if (predicate === true) return;
    const inside = await this.admitted(db, def, user, ids, action, 'with', predicate);
    const outside = ids.filter((id) => !inside.has(id));
    if (!outside.length) return;
    const access = await this.of(user, def, db);
    const words = refusalWords(access.rules.read, await this.namesOf(def, db), 'read').replace(' is ', ' would be ');
    const message =
      ids.length > 1 ? `${outside.length} of the records would be outside what you may see. ${words}` : words;
    const fields = ruleFields(access.rules[action], access.def.fields).filter((field) => field in access.def.fields);
    throw new ValidationError(
      Object.fromEntries((fields.length ? fields : ['record']).map((f) => [f, [words]])),
      message,
    );
  }

  /**
   * Of these records, those a person limited to a turf reads only because they are their own (a site their task hangs
   * on): shown with the note "Outside your turf". Empty for anyone else.
   */
  async outsideTurf(
    user: AuthUser | null,
    def: ResourceDefinition,
    ids: readonly number[],
    /** For sites, their regions as their rows hold them: the turf is tested on them here (`regionsInTurf`). */
    regions?: SiteRegions,
  ): Promise<Set<number>> {
    if (!user || !ids.length) return new Set();
    const access = await this.of(user, def);
    if (!access.turf) return new Set();
    const predicate = access.turf(whoIs(user, true));
    if (predicate === true) return new Set();
    if (def.table === 'sites' && regions && predicate !== false && ids.every((id) => regions.has(id))) {
      const turf = new Set(await this.turfIds(this.records.db, user));
      return new Set(ids.filter((id) => !regionsInTurf(regions.get(id) ?? null, turf)));
    }
    // `is true`: the turf is tested on the page's rows, read by id, rather than read as a whole through its index
    // (a site turf's GIN index gives every one of its sites, to be intersected with the page's few).
    const inside =
      predicate === false
        ? []
        : await dynamicTables(this.records.db)
            .selectFrom(`${def.table} as t`)
            .select('t.id')
            .where('t.id', 'in', [...new Set(ids)])
            .where(sql<boolean>`(${predicate}) is true`)
            .execute();
    const found = new Set(inside.map((row: { id: unknown }) => Number(row.id)));
    return new Set(ids.filter((id) => !found.has(id)));
  }

  /**
   * What of `def` lies in these regions, as a condition on its row `t` (a site inside one, a contractor working on such a
   * site, a note on one...: the turf rule's reach), or false for a type tied to no site. The feed's region filter.
   */
  async inRegions(def: ResourceDefinition, regionIds: readonly number[]): Promise<Predicate> {
    const nobody: Subject = { role_id: null, permissions: [], policy: {} };
    const { turf } = await this.kept('regions', def, () => this.compile(nobody, def, undefined, 'turf'));
    return turf ? turf(regionsAsTurf(regionIds)) : false;
  }

  /**
   * History as this person may read it: the changes of revisions without the fields their role hides of that type
   * (in place; the history, the activity feed and the map's card show revisions).
   */
  async maskRevisions<T extends { revisionable_type: string; changes: unknown }>(
    user: Subject,
    rows: T[],
  ): Promise<T[]> {
    const masks = new Map<string, FieldMask>();
    for (const row of rows) {
      if (!row.changes || typeof row.changes !== 'object') continue;
      let mask = masks.get(row.revisionable_type);
      if (!mask) {
        const def = this.registry.byType(row.revisionable_type);
        mask = def ? await this.mask(user, def) : NO_MASK;
        masks.set(row.revisionable_type, mask);
      }
      if (!mask.hidden.size) continue;
      const changes = { ...(row.changes as Record<string, unknown>) };
      for (const field of mask.hidden) delete changes[field];
      row.changes = changes;
    }
    return rows;
  }

  /** The definition of a record type (registered: built-in, or made in the app). */
  definitionOf(type: string): ResourceDefinition | undefined {
    return this.registry.byType(type);
  }

  /**
   * Is record `id` of `type` there (not deleted) and readable by the person? What a note, task, visit or card may be
   * attached to. `user` null: the server itself, any live record.
   */
  async liveAndReadable(db: Kysely<DB>, type: string, user: AuthUser | null, id: number): Promise<boolean> {
    const def = this.registry.byType(type);
    if (!def || (user && !this.mayRead(user, def))) return false;
    const row = await (await this.rows(db, def, user)).select('t.id').where('t.id', '=', id).executeTakeFirst();
    return Boolean(row);
  }

  /** Of these ids, those inside the person's rule for `action`. */
  async admitted(
    db: Kysely<DB>,
    def: ResourceDefinition,
    user: AuthUser,
    ids: readonly number[],
    action: RuleAction = 'read',
    trashed: 'with' | 'without' = 'with',
    /** The rule as SQL when the caller has worked it out already (assertLands). */
    known?: Predicate,
  ): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const predicate = known ?? (await this.where(user, def, action, { db, who: whoIs(user, true) }));
    if (predicate === true && trashed === 'with') return new Set(ids);
    if (predicate === false) return new Set();
    const all = this.allRows(db, def, trashed);
    const rows = await (predicate === true ? all : all.where(asSql(predicate)))
      .select('t.id')
      .where('t.id', 'in', [...new Set(ids)])
      .execute();
    return new Set(rows.map((row: { id: unknown }) => Number(row.id)));
  }
}

const NO_MASK: FieldMask = { hidden: new Set(), readOnly: new Set() };

/** Is this part of a rule the category permissions' condition (`type in [...]`, common/access-rules.ts effectiveRule)? */
function isCategoryCondition(rule: RowRule, def: ResourceDefinition): boolean {
  if (typeof rule !== 'object' || !('condition' in rule) || !('all' in rule.condition)) return false;
  const [only, ...more] = rule.condition.all;
  return !more.length && 'field' in only && only.field === def.categoryColumn && only.op === 'in';
}

/** Records without the fields the mask hides (copies only where something is taken out). */
export function masked<T extends Record<string, unknown>>(records: T[], mask: FieldMask): T[] {
  if (!mask.hidden.size) return records;
  return records.map((record) => {
    const copy = { ...record };
    for (const field of mask.hidden) delete copy[field];
    return copy;
  });
}

const sameValue = (a: unknown, b: unknown) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null) || (isEmpty(a) && isEmpty(b));
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The fields a rule looks at: what a person would change to bring a record inside it. */
function ruleFields(rule: RowRule, fields: Record<string, FieldSpec>): string[] {
  if (rule === 'turf')
    return 'latitude' in fields && 'longitude' in fields
      ? ['latitude', 'longitude']
      : referencing(fields, 'sites').map(([name]) => name);
  if (rule === 'own') return personFields(fields).map(([name]) => name);
  if (rule === 'team') return teamFields(fields).map(([name]) => name);
  if (typeof rule === 'string') return [];
  if ('condition' in rule) return conditionFields(rule.condition);
  return [...new Set(('any' in rule ? rule.any : rule.all).flatMap((part) => ruleFields(part, fields)))];
}

function conditionFields(group: ConditionGroup): string[] {
  return ('all' in group ? group.all : group.any).flatMap((item) =>
    'field' in item ? [item.field] : conditionFields(item as ConditionGroup),
  );
}

/**
 * The field rules as sets, for the fields the type has (a rule for a field deleted since is dropped); a value built
 * from a hidden field is hidden with it.
 */
function maskOf(
  rules: Record<string, FieldRule>,
  fields: Record<string, FieldSpec>,
  derived: ResourceDefinition['derivedFields'] = {},
): FieldMask {
  // Most roles have no field rules: asked without making an array of them on every compile.
  let ruled = false;
  for (const _ in rules) ruled = true;
  if (!ruled) return NO_MASK;
  const hidden = new Set<string>();
  const readOnly = new Set<string>();
  for (const [field, rule] of Object.entries(rules)) {
    if (!(field in fields)) continue;
    if (rule === 'hidden') hidden.add(field);
    readOnly.add(field);
  }
  for (const [field, sources] of Object.entries(derived))
    if (sources.some((source) => hidden.has(source))) hidden.add(field);
  return hidden.size || readOnly.size ? { hidden, readOnly } : NO_MASK;
}
