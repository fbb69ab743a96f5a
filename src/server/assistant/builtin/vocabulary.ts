import { sql } from 'kysely';
import { canOnEntity } from '../../../common/permissions.js';
import { isRecordEvent } from '../../events/app-events.js';
import { searchExpression } from '../../records/list-query.js';
import type { ResourceDefinition } from '../../records/resource.js';
import { hasTrigram } from '../../schemas/indexes.js';
import { type FieldInfo, recordLabel, type TypeInfo } from '../catalogue.js';
import { assistantEnabled } from '../limits.js';
import { findByName } from '../tools/records.js';
import { createScope, type ToolScope } from '../tools/scope.js';

/**
 * The words the built-in assistant knows, taken from what the person may read: record type names (the schemas'
 * names, custom types included), field names, choices, the names of reference records (statuses, trades, building
 * types...), regions and cities. Loaded per question, and only for the record type the question is about.
 */

const TYPE_ALIASES: Record<string, string[]> = {
  site: ['job sites', 'job site', 'jobsites', 'jobsite', 'jobs', 'job', 'projects', 'project', 'sites', 'site'],
  contractor: ['contractors', 'contractor', 'companies', 'company', 'employers', 'employer'],
  contact: ['contacts', 'contact'],
  member: ['members', 'member', 'union members'],
  recruit: ['recruits', 'recruit'],
  grievance: ['grievances', 'grievance'],
  task: ['tasks', 'task', 'to-dos', 'todos', 'to do', 'reminders', 'reminder'],
  note: ['notes', 'note'],
  region: ['regions', 'region', 'counties'],
};

/** Singular and plural spellings of a name ("job site" -> "job sites"; "activity" -> "activities"). */
function spellings(name: string): string[] {
  const word = name.trim().toLowerCase();
  if (!word) return [];
  const plural = /(s|x|z|ch|sh)$/.test(word)
    ? `${word}es`
    : /[^aeiou]y$/.test(word)
      ? `${word.slice(0, -1)}ies`
      : `${word}s`;
  return [word, plural];
}

export function typePhrases(types: readonly TypeInfo[]): Array<{ phrase: string; info: TypeInfo }> {
  const out: Array<{ phrase: string; info: TypeInfo }> = [];
  for (const info of types) {
    const phrases = new Set([
      ...spellings(info.singular),
      info.plural,
      ...spellings(info.type.replace(/-/g, ' ')),
      ...(TYPE_ALIASES[info.type] ?? []),
    ]);
    for (const phrase of phrases) out.push({ phrase, info });
  }
  return out;
}

/** Tables of the organizing records: their names are asked about as records ("Cedar Tower"), not used as filter words. */
const RECORD_TABLES = new Set([
  'sites',
  'contractors',
  'contacts',
  'members',
  'recruits',
  'grievances',
  'users',
  'custom_records',
  'regions',
  'tasks',
  'notes',
  'documents',
]);
const MAX_REFERENCE_ROWS = 200;

export interface ValueWord {
  field: FieldInfo;
  value: unknown;
  label: string;
  phrases: string[];
  /** The record type's own category (site type) first, then choices, then related names, then yes/no fields. */
  rank: number;
}

const choicePhrases = (value: string, label: string) => {
  const base = [label.toLowerCase(), value.toLowerCase(), value.toLowerCase().replace(/-/g, ' ')];
  if (/^non-/.test(value)) base.push(value.replace(/^non-/, 'non'), value.replace(/^non-/, 'not '));
  return [...new Set(base.filter((p) => p.length > 1))];
};

/** A region and how it is named: with its kind ("Kern County", "county of Kern", "LA County") and bare ("Kern"). */
export interface RegionWord {
  id: number;
  name: string;
  kind: string;
  /** Names that say the region's kind: matched wherever they appear. */
  phrases: string[];
  /** The name alone ("Los Angeles"): also a city's name, perhaps. */
  bare: string;
}

const KIND_WORDS: Record<string, string> = { county: 'county', state: 'state', city: 'city', postal_code: 'zip' };

export function regionWord(id: number, name: string, kind: unknown): RegionWord {
  const full = name.toLowerCase().trim();
  const kindWord = KIND_WORDS[String(kind ?? '')] ?? '';
  // "Los Angeles County, CA" -> "los angeles county" -> "los angeles".
  const local = full.replace(/,\s*[a-z]{2}$/, '').trim();
  const bare = kindWord ? local.replace(new RegExp(`\\s+${kindWord}$`), '').trim() : local;
  const initials = bare.includes(' ')
    ? bare
        .split(/\s+/)
        .map((w) => w[0])
        .join('')
    : '';
  const phrases = [full, local];
  if (kindWord) {
    phrases.push(`${bare} ${kindWord}`, `${kindWord} of ${bare}`);
    if (initials.length > 1) phrases.push(`${initials} ${kindWord}`);
  }
  return { id, name, kind: String(kind ?? ''), phrases: [...new Set(phrases)], bare };
}

export class Vocabulary {
  private values = new Map<string, Promise<ValueWord[]>>();
  private regionList: Promise<RegionWord[]> | null = null;
  private cityList = new Map<string, Promise<string[]>>();
  /** The cities read, by `type.column`, once read whole (under CITY_LIMIT): what a written record is checked against. */
  private knownCities = new Map<string, Set<string>>();
  /** The reference lists read (statuses, trades...), by resource: several types' fields point at the same one. */
  private references = new Map<string, Promise<Record<string, any>[] | null>>();
  /** The tables of the reference records and regions whose names it holds: a change to one makes it out of date. */
  readonly reads = new Set<string>();

  constructor(private readonly scope: ToolScope) {}

  /** Loads what `other` has loaded (its types' value words, regions, names and cities), to take its place. */
  async loadLike(other: Vocabulary): Promise<void> {
    const loads: Array<Promise<unknown>> = [];
    for (const type of other.values.keys()) {
      const info = this.scope.typeOf(type);
      if (info) loads.push(this.valueWords(info));
    }
    if (other.regionList) loads.push(this.regions());
    for (const key of other.cityList.keys()) {
      if (key.startsWith('names:')) loads.push(this.names(key.slice('names:'.length)));
      else {
        const [type, column] = key.split('.');
        const info = this.scope.typeOf(type);
        if (info) loads.push(this.cities(info, column));
      }
    }
    await Promise.all(loads);
  }

  /** Loads every word a question may use: each readable type's value words and cities, the regions, the trades. */
  async loadAll(): Promise<void> {
    const loads: Array<Promise<unknown>> = [this.regions()];
    if (this.scope.typeOf('trade')) loads.push(this.names('trades'));
    for (const info of this.scope.types) {
      loads.push(this.valueWords(info));
      if (info.fields.has('city')) loads.push(this.cities(info));
    }
    await Promise.all(loads);
  }

  /** Words that filter records of `info` by a field value. A category the person may not read is known too, so that asking for it is refused by name. */
  valueWords(info: TypeInfo): Promise<ValueWord[]> {
    let words = this.values.get(info.type);
    if (!words) this.values.set(info.type, (words = this.loadValues(info)));
    return words;
  }

  private async loadValues(info: TypeInfo): Promise<ValueWord[]> {
    const words: ValueWord[] = [];
    for (const field of info.fields.values()) {
      if (!field.filterable) continue;
      if (field.choices) {
        for (const choice of field.choices) {
          const category = info.def.categoryColumn === field.slug;
          words.push({
            field,
            value: choice.value,
            label: choice.label,
            phrases: choicePhrases(choice.value, choice.label),
            rank: category ? 0 : 1,
          });
        }
      } else if (field.target) {
        const rows = await this.referenceRows(field.target);
        if (!rows) continue;
        for (const row of rows) {
          const label = recordLabel(row);
          words.push({
            field,
            value: row.id,
            label,
            phrases: [...new Set([label.toLowerCase(), ...(row.slug ? [String(row.slug).replace(/-/g, ' ')] : [])])],
            rank: 2,
          });
        }
      } else if (field.kind === 'boolean') {
        words.push({
          field,
          value: true,
          label: field.name,
          phrases: spellings(field.name.replace(/^is /, '')),
          rank: 3,
        });
      }
    }
    return words;
  }

  /**
   * The records of a reference list the person may read (statuses, trades...), read alike by everyone of their role.
   * Null for organizing records, for a list past 200, and for records whose reading depends on who reads (visits,
   * one's own work): those are records, not words, and leaving them out lets people of one role share a vocabulary.
   */
  private referenceRows(resource: string): Promise<Record<string, any>[] | null> {
    let rows = this.references.get(resource);
    if (!rows) {
      const { app, user } = this.scope;
      const def = app.resources.get(resource);
      rows =
        def && !RECORD_TABLES.has(def.table) && app.records.access.mayRead(user, def)
          ? app.records.access.personal(user, def).then(async (personal) => {
              if (personal) return null;
              this.reads.add(def.table);
              const { data, meta } = await app.records.list(user, def, { per_page: MAX_REFERENCE_ROWS });
              return meta.total > MAX_REFERENCE_ROWS ? null : data;
            })
          : Promise.resolve(null);
      rows = rows.catch(() => null);
      this.references.set(resource, rows);
    }
    return rows;
  }

  /** The names of a resource's records the person may read (trades, ...), up to 200. */
  names(resource: string): Promise<Array<{ id: number; name: string }>> {
    const key = `names:${resource}`;
    let list = this.cityList.get(key) as unknown as Promise<Array<{ id: number; name: string }>> | undefined;
    if (!list) {
      const def = this.scope.app.resources.get(resource);
      if (def) this.reads.add(def.table);
      list = def
        ? this.scope.app.records.list(this.scope.user, def, { per_page: MAX_REFERENCE_ROWS }).then(
            ({ data }) => data.map((r) => ({ id: r.id, name: recordLabel(r) })),
            () => [],
          )
        : Promise.resolve([]);
      this.cityList.set(key, list as unknown as Promise<string[]>);
    }
    return list;
  }

  /** The regions the person may read, each with the ways people name it ("Los Angeles County, CA": "LA County"...). */
  regions(): Promise<RegionWord[]> {
    if (!this.regionList) {
      const def = this.scope.app.resources.get('regions');
      this.reads.add('regions');
      this.regionList =
        def && this.scope.typeOf('region')
          ? this.scope.app.records
              .list(this.scope.user, def, { per_page: 500 })
              .then(({ data }) => data.map((r) => regionWord(r.id, String(r.name), r.geometry_type)))
          : Promise.resolve([]);
    }
    return this.regionList;
  }

  /**
   * Whether this vocabulary knows the city a written record of `type` holds: false for a city it has not read (a new
   * one), true when it holds it or has not read that type's cities whole.
   */
  knowsCityOf(type: string, record: Record<string, unknown>): boolean {
    for (const [key, known] of this.knownCities) {
      const [ofType, column] = key.split('.');
      const value = record[column];
      if (ofType === type && typeof value === 'string' && value.length > 1 && !known.has(value)) return false;
    }
    return true;
  }

  /** The distinct values of a text column among the records the person may read (cities of sites). */
  cities(info: TypeInfo, column = 'city'): Promise<string[]> {
    const key = `${info.type}.${column}`;
    let list = this.cityList.get(key);
    if (!list) {
      const value = sql.ref(`t.${column}`);
      list = info.fields.has(column)
        ? this.scope.app.records
            .visibleRows(this.scope.app.db, info.def, this.scope.user)
            .then((rows) =>
              rows
                .select(sql<string>`distinct ${value}`.as('value'))
                .where(value, 'is not', null)
                .limit(CITY_LIMIT)
                .execute(),
            )
            .then((rows: Array<{ value: unknown }>) => {
              const values = rows.map((r) => String(r.value)).filter((v) => v.length > 1);
              if (rows.length < CITY_LIMIT) this.knownCities.set(key, new Set(values));
              return values;
            })
        : Promise.resolve([]);
      this.cityList.set(key, list);
    }
    return list;
  }
}

/**
 * The record types a vocabulary reads whose rows may depend on who reads: the regions, the trades and the types whose
 * cities it lists. (The reference lists it reads are read alike by everyone of the role: `referenceRows`.) People
 * who read these alike share one vocabulary.
 */
function definitionsRead(scope: ToolScope): ResourceDefinition[] {
  const defs = [scope.app.resources.get('regions'), scope.app.resources.get('trades')];
  for (const info of scope.types) if (info.fields.has('city')) defs.push(info.def);
  return defs.filter((def): def is ResourceDefinition => Boolean(def));
}

/**
 * Names change rarely and every figure comes from a tool anyway, so a vocabulary is kept between questions, one for
 * everyone who reads alike (AccessPolicy.readerKey: the same role, and the person's own when a rule of the types it
 * reads depends on who reads), and built before it is needed: in the background when the person is first seen
 * (`warmVocabulary`: sign-in, a page load, any request after the server started). Building it reads every reference
 * list, the regions and the distinct cities of up to 100,000 sites: far more than the reading of a question, so no
 * question waits for it once it exists. A kept vocabulary older than KEEP_MS, or one whose sites changed within the
 * cities it knows, is still used while its successor is built in the background (loading what the old one had loaded)
 * and replaces it when ready. A site in a city it does not know, many sites at once (an import), or a change to any
 * other record type it reads from (a region, a status, a trade, a type's fields) makes the next question build a new
 * one first, so a new name is known at once.
 */
const KEEP_MS = 30_000;
/** A vocabulary nobody asked with for this long is dropped. */
const FORGET_MS = 30 * 60_000;
/** The most distinct cities of a type a vocabulary reads. */
const CITY_LIMIT = 2_000;
/** The most vocabularies kept (the least recently used is dropped first): each holds up to 2,000 cities a type. */
const MAX_KEPT = 200;
/** Tables whose changes only add or remove cities: refreshed in the background, never waited for. */
const CITY_TABLES = new Set(['sites']);
/** The record types' fields and choices. */
const SCHEMA_TABLES = new Set(['schemas', 'schema_fields']);

interface Kept {
  at: number;
  used: number;
  vocabulary: Vocabulary;
  /** A change made it out of date: built again before the next question. */
  changed: boolean;
  refreshing: boolean;
}

interface Readers {
  /** By reader key, least recently used first. */
  entries: Map<string, Kept>;
  /** Warm-ups under way (awaited at shutdown). */
  warming: Set<Promise<void>>;
  /** When each person was last looked at for a warm-up, by id. */
  seen: Map<number, number>;
}

const kept = new WeakMap<object, Readers>();

function readersOf(app: ToolScope['app']): Readers {
  let readers = kept.get(app);
  if (!readers) {
    const made: Readers = { entries: new Map(), warming: new Set(), seen: new Map() };
    kept.set(app, (readers = made));
    app.events.on((event) => {
      if (!isRecordEvent(event)) return;
      const { table } = event.resource;
      for (const entry of made.entries.values())
        if (SCHEMA_TABLES.has(table) || entry.vocabulary.reads.has(table)) entry.changed = true;
        else if (CITY_TABLES.has(table)) {
          // A city it does not know (or many records at once) is waited for, so the next question knows it; a write
          // within known cities is caught up in the background.
          if (event.id === null || !entry.vocabulary.knowsCityOf(event.type, event.record)) entry.changed = true;
          else entry.at = 0;
        }
    });
  }
  return readers;
}

/** The key of the vocabulary this person uses: shared with everyone who reads the same (AccessPolicy.readerKey). */
const readerKeyOf = (scope: ToolScope) => scope.app.records.access.readerKey(scope.user, definitionsRead(scope));

/** The vocabulary each question (its scope) uses: looked up once a question. */
const ofScope = new WeakMap<ToolScope, Promise<Vocabulary>>();

/** The vocabulary of the person asking: kept (and shared with those who read alike), or a new one. */
export function vocabularyFor(scope: ToolScope): Promise<Vocabulary> {
  let vocabulary = ofScope.get(scope);
  if (!vocabulary) ofScope.set(scope, (vocabulary = keptOrNew(scope)));
  return vocabulary;
}

async function keptOrNew(scope: ToolScope): Promise<Vocabulary> {
  const { entries } = readersOf(scope.app);
  const key = await readerKeyOf(scope);
  const hit = entries.get(key);
  const now = Date.now();
  if (hit && !hit.changed) {
    hit.used = now;
    // Most recently used last: the first entries are dropped when there are too many.
    entries.delete(key);
    entries.set(key, hit);
    if (now - hit.at >= KEEP_MS && !hit.refreshing) {
      hit.refreshing = true;
      const next = new Vocabulary(scope);
      next
        .loadLike(hit.vocabulary)
        .then(
          () => {
            const current = entries.get(key);
            if (current === hit) entries.set(key, { ...hit, at: now, vocabulary: next, refreshing: false });
          },
          () => undefined,
        )
        .finally(() => {
          hit.refreshing = false;
        });
    }
    return hit.vocabulary;
  }
  for (const [other, entry] of entries) if (now - entry.used >= FORGET_MS) entries.delete(other);
  const vocabulary = new Vocabulary(scope);
  entries.delete(key);
  entries.set(key, { at: now, used: now, vocabulary, changed: false, refreshing: false });
  for (const other of entries.keys()) {
    if (entries.size <= MAX_KEPT) break;
    entries.delete(other);
  }
  return vocabulary;
}

/** Whether a vocabulary for this person is kept and up to date (tests). */
export async function keptVocabulary(scope: ToolScope): Promise<Vocabulary | undefined> {
  const entry = readersOf(scope.app).entries.get(await readerKeyOf(scope));
  return entry && !entry.changed ? entry.vocabulary : undefined;
}

/** How often one person is looked at for a warm-up at most. */
const WARM_EVERY_MS = 60_000;

/**
 * Builds the person's vocabulary in the background, whole, unless one is kept for them: so their first question
 * reads it rather than waiting for it. Called at sign-in, a page load and when the chat opens (assistant/routes.ts),
 * at most once a minute a person; a person who may not use the assistant, or with the assistant off, is left alone.
 */
export function warmVocabulary(app: ToolScope['app'], user: ToolScope['user']): void {
  const readers = readersOf(app);
  const now = Date.now();
  if (now - (readers.seen.get(user.id) ?? 0) < WARM_EVERY_MS) return;
  readers.seen.set(user.id, now);
  if (readers.seen.size > MAX_KEPT * 10)
    for (const [id, at] of readers.seen) if (now - at >= WARM_EVERY_MS) readers.seen.delete(id);
  const work = (async () => {
    if (!canOnEntity(user, 'assistant-thread', 'read') || !(await assistantEnabled(app))) return;
    const scope = await createScope(app, user);
    if (await keptVocabulary(scope)) return;
    await (await vocabularyFor(scope)).loadAll();
  })().catch((error) => app.records.logError(error, 'The assistant could not prepare its vocabulary'));
  readers.warming.add(work);
  void work.finally(() => readers.warming.delete(work));
}

/** The warm-ups under way have ended (shutdown, tests). */
export async function warmedUp(app: ToolScope['app']): Promise<void> {
  await Promise.all(readersOf(app).warming);
}

export interface Found {
  info: TypeInfo;
  row: Record<string, any>;
  /** The name asked for, when no record has it exactly and this is the one record whose name starts with it. */
  guessedFrom?: string;
  /** Found by a name close to the one asked for (a typo, a part of it), not by that name. */
  closest?: boolean;
}

/** A record's name as a question writes it: quotes, end punctuation and a leading "the" taken off. */
const nameIn = (phrase: string) =>
  phrase
    .trim()
    .replace(/^["']|["'?.!,]+$/g, '')
    .replace(/^(the|a|an)\s+/i, '')
    .trim();

/** How close a name must be to be offered (pg_trgm word similarity, 0 to 1: `<%` holds from 0.6), and to be taken alone. */
const CLOSE = 0.6;
const SURE = 0.7;

/**
 * The records whose names are closest to one that matched none ("Riverfrnt Hotel", "Harbor Yrd"): pg_trgm's word
 * similarity over the type's search text (the expression its trigram index holds), among the records the person may
 * read, read back through the record service. One clearly closest is taken (`guessedFrom`: the answer says so);
 * several are offered as choices. None where the database has no pg_trgm.
 */
export async function closestRecords(
  scope: ToolScope,
  phrase: string,
  prefer: readonly TypeInfo[] = [],
): Promise<Found[]> {
  const name = nameIn(phrase);
  if (name.length < 3 || name.length > 200 || !(await trigramsIn(scope))) return [];
  const candidates = prefer.length ? prefer : scope.types.filter((t) => NAMED_TYPES.includes(t.type) || t.custom);
  const scored: Array<{ info: TypeInfo; id: number; score: number }> = [];
  for (const info of candidates) {
    if (!info.def.search?.length) continue;
    const text = searchExpression(info.def.search);
    const base = await scope.app.records.visibleRows(scope.app.db, info.def, scope.user);
    const rows = await base
      .select([sql<number>`t.id`.as('id'), sql<number>`word_similarity(${name}, ${text})`.as('score')])
      .where(sql<boolean>`${name} <% ${text}`)
      .orderBy('score', 'desc')
      .limit(5)
      .execute();
    for (const row of rows as Array<{ id: number; score: number }>)
      if (Number(row.score) >= CLOSE) scored.push({ info, id: Number(row.id), score: Number(row.score) });
  }
  scored.sort((a, b) => b.score - a.score);
  const sure = scored[0] && scored[0].score >= SURE && (scored[1]?.score ?? 0) < scored[0].score - 0.15;
  const found: Found[] = [];
  for (const hit of sure ? scored.slice(0, 1) : scored.slice(0, 5)) {
    const { data } = await scope.app.records.list(scope.user, hit.info.def, { filter: JSON.stringify({ id: hit.id }) });
    if (data[0]) found.push({ info: hit.info, row: data[0], closest: true, ...(sure ? { guessedFrom: name } : {}) });
  }
  return found;
}

const trigrams = new WeakMap<object, Promise<boolean>>();
const trigramsIn = (scope: ToolScope) => {
  let known = trigrams.get(scope.app);
  if (!known) trigrams.set(scope.app, (known = hasTrigram(scope.app.db)));
  return known;
};

/** Types whose records are asked about by name. */
const NAMED_TYPES = ['site', 'contractor', 'contact', 'member', 'recruit', 'grievance', 'region'];

/**
 * The records a name points at, among those the person may read: the open record for "this", else exact name
 * matches (ignoring case) in the first of the preferred types (else of the named types, custom types included) that
 * has any; a unique partial match counts only when nothing matches exactly.
 */
export async function resolveRecords(
  scope: ToolScope,
  phrase: string,
  prefer: readonly TypeInfo[] = [],
): Promise<Found[]> {
  const name = nameIn(phrase);
  if (!name) return [];
  if (
    /^(this|it|here|this one|this record|this page|this (site|job site|contractor|contact|member|recruit|grievance|region|project|company|person))$/i.test(
      name,
    )
  ) {
    if (!scope.context) return [];
    const info = scope.typeOf(scope.context.type);
    if (!info) return [];
    const row = await scope.app.records.show(scope.user, info.def, scope.context.id).catch(() => null);
    return row ? [{ info, row }] : [];
  }
  // "site Riverfront Tower", "the contractor Apex", "site #45": the type named first narrows the search.
  const typed = typePhrases(scope.types)
    .filter((t) => name.toLowerCase().startsWith(`${t.phrase} `))
    .sort((a, b) => b.phrase.length - a.phrase.length)[0];
  if (typed && !prefer.length) {
    const rest = name.slice(typed.phrase.length).trim();
    const byId = /^#?(\d+)$/.exec(rest);
    if (byId) {
      const row = await scope.app.records.show(scope.user, typed.info.def, Number(byId[1])).catch(() => null);
      return row ? [{ info: typed.info, row }] : [];
    }
    return resolveRecords(scope, rest, [typed.info]);
  }
  const candidates = prefer.length ? prefer : scope.types.filter((t) => NAMED_TYPES.includes(t.type) || t.custom);
  const exact: Found[] = [];
  const partial: Found[] = [];
  // Types in order (sites first): the first type with a record of exactly that name is the one meant.
  for (const info of candidates) {
    if (!info.def.search?.length) continue;
    const rows = await findByName(scope, info.def, name, 10);
    for (const row of rows)
      (recordLabel(row).toLowerCase() === name.toLowerCase() ? exact : partial).push({ info, row });
    if (exact.length) break;
  }
  if (exact.length) return exact;
  const starts = partial.filter((f) => recordLabel(f.row).toLowerCase().startsWith(name.toLowerCase()));
  return starts.length === 1 ? [{ ...starts[0], guessedFrom: name }] : [];
}

/** The records a name points at (resolveRecords), else those with the closest names (closestRecords). */
export async function findRecords(
  scope: ToolScope,
  phrase: string,
  prefer: readonly TypeInfo[] = [],
): Promise<Found[]> {
  const found = await resolveRecords(scope, phrase, prefer);
  return found.length ? found : closestRecords(scope, phrase, prefer);
}
