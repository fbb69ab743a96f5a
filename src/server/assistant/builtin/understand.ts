import leven from 'leven';
import { rangeFilter } from '../../reports/scope.js';
import type { FieldInfo, TypeInfo } from '../catalogue.js';
import { type Period, periodIn, whenIn } from '../dates.js';
import type { ProposalInput } from '../proposals.js';
import type { AnswerList } from '../resources.js';
import type { ToolScope } from '../tools/scope.js';
import { phraseSource, Question, type Span, wordPattern } from './text.js';
import {
  closestRecords,
  type Found,
  findRecords,
  type RegionWord,
  resolveRecords,
  typePhrases,
  type Vocabulary,
  vocabularyFor,
} from './vocabulary.js';

/**
 * The built-in assistant's reading of a question: which kind of question it is and what it is about, found with
 * fixed patterns and the vocabulary of what the person may read. Deterministic: the same question over the same
 * records always gives the same plan. Anything it cannot account for makes it refuse (`not_understood`) rather than
 * answer another question.
 */
export type Plan =
  | { kind: 'help' }
  | {
      kind: 'refuse';
      reason: 'not_understood' | 'cannot_delete' | 'cannot_send' | 'no_record' | 'ambiguous' | 'no_context';
      detail?: string;
      matches?: Found[];
      /** Known words nearest to those not understood ("grievence": "grievance"). */
      closest?: string[];
      /** The question with the record's name as `{record}`: each match is offered as that question about it. */
      retry?: string;
    }
  | {
      kind: 'records';
      mode: 'count' | 'list' | 'group';
      /** A ranking ("the five biggest"): the list sorted by this field, this many. */
      rank?: { field: string; order: 'asc' | 'desc'; limit: number; words: string };
      /** A total or an average of a number field ("total value of union sites"), counted with it. */
      measure?: Measure;
      /** Only the groups with the most records, this many ("top contractors by number of sites"). */
      top?: number;
      info: TypeInfo;
      filter: Record<string, unknown>;
      words: Description;
      groupBy?: {
        field: string;
        label: string;
        interval?: 'week' | 'month' | 'quarter' | 'year';
        dateField?: string;
        period?: Period;
      };
    }
  | { kind: 'field'; field: FieldInfo | 'address' | 'contractors'; records: Found[] }
  | { kind: 'describe'; records: Found[] }
  | {
      kind: 'market_share';
      region?: RegionWord;
      trade?: { id: number; name: string };
      period?: Period;
    }
  | {
      kind: 'near';
      info: TypeInfo;
      place: string;
      radiusKm: number;
      filter: Record<string, unknown>;
      words: Description;
    }
  | { kind: 'propose'; input: ProposalInput; mention?: string }
  /** The question can be read two ways (or names several records): each reading is a question to ask instead. */
  | { kind: 'readings'; phrase: string; readings: Reading[] };

export interface Reading {
  label: string;
  question: string;
}

export interface Measure {
  fn: 'sum' | 'avg';
  field: string;
  /** "total estimated value". */
  words: string;
}

/** How the answer names what was counted: "union sites in Los Angeles County bidding next month (...)". */
export interface Description {
  adjectives: string[];
  qualifiers: string[];
  /** The filter keys each word stands for ("in Kern County": region_ids), so a follow-up can replace them. */
  sources?: Record<string, string[]>;
}

const AMOUNT = /(?<![\w-])(how many|how much|number of|count(?: of)?|total(?: number of)?|tally)(?![\w-])/;
const GROUP =
  /(?<![\w-])(?:by|per|for each|for every|broken down by|grouped by|split by|in each|(?:does|do|did)?\s*each|(?:does|do|did)?\s*every)\s+([a-z][a-z -]*?)(?=\s*$|\s*[?.,]|\s+(?:in|for|with|this|last|next|since|from|during|have|has|got|own|owns|carry|carries|hold|holds|handle|handles)\b)/;

/** Verbs and nouns that say which date a period is about. */
const DATE_WORDS: Array<[string[], string]> = [
  [['bid date', 'bidding', 'bids', 'bid', 'to bid', 'go out to bid', 'out to bid'], 'bid_date'],
  [
    [
      'kickoff date',
      'kick off',
      'kicking off',
      'kicked off',
      'kicks off',
      'kickoff',
      'kick-off',
      'starting',
      'starts',
      'start',
      'started',
      'start date',
    ],
    'kickoff_date',
  ],
  [['due', 'due date'], 'due_at'],
  [['filed', 'filed on'], 'filed_at'],
  [['closed on', 'closed'], 'closed_at'],
  [['joined', 'joined on', 'who joined'], 'joined_at'],
  [['signed', 'signed up', 'signed on'], 'signed_at'],
  [['completed', 'done', 'finished'], 'completed_at'],
  [['updated', 'changed', 'edited'], 'updated_at'],
  [['new', 'added', 'created', 'entered', 'made', 'logged', 'written'], 'created_at'],
];

const FIELD_ALIASES: Record<string, string[]> = {
  general_contractor_id: ['gc', 'g.c.', 'general contractor', 'general'],
  user_id: ['organizer', 'organiser', 'organizer in charge'],
  kickoff_date: ['kickoff date', 'kickoff', 'start date', 'kick off date'],
  bid_date: ['bid date', 'bid day'],
  site_status_id: ['status'],
  estimated_value: ['estimated value', 'value', 'budget', 'cost', 'price'],
  estimated_hours: ['estimated hours', 'hours'],
  contact_ids: ['contacts', 'contact people', 'contact'],
  trade_ids: ['trades', 'crafts'],
  region_ids: ['regions', 'region', 'county'],
  owner: ['owner', 'developer'],
  representative: ['owner representative', "owner's representative", 'owner rep', 'representative'],
  contractor_id: ['employer', 'contractor', 'company'],
  assignee_id: ['assignee', 'person assigned'],
};

function fieldPhrases(field: FieldInfo): string[] {
  return [...new Set([field.name, field.name.replace(/ (id|ids)$/, ''), ...(FIELD_ALIASES[field.slug] ?? [])])];
}

/** A field of one of `types` named by `phrase` ("the gc", "status", "bid date"); the special "address" and "contractors". */
function fieldNamed(
  phrase: string,
  types: readonly TypeInfo[],
): { field: FieldInfo | 'address' | 'contractors'; types: TypeInfo[] } | null {
  const wanted = phrase
    .trim()
    .replace(/^(the|a|an)\s+/, '')
    .replace(/\s+/g, ' ');
  if (/^(address|location|where)$/.test(wanted))
    return { field: 'address', types: types.filter((t) => t.fields.has('city')) };
  if (/^(contractors|other contractors|subcontractors|subs|contractors working|companies)$/.test(wanted))
    return { field: 'contractors', types: types.filter((t) => t.fields.has('contractor_ids')) };
  const hits = types.flatMap((info) =>
    [...info.fields.values()].filter((f) => fieldPhrases(f).includes(wanted)).map((field) => ({ info, field })),
  );
  if (!hits.length) return null;
  const field = hits[0].field;
  return { field, types: hits.filter((h) => h.field.slug === field.slug).map((h) => h.info) };
}

const TASK_VERBS: Array<[RegExp, 'call' | 'meeting' | 'visit']> = [
  [/^(call|phone|ring|talk to|speak to|speak with|check in with|follow up with)\b/, 'call'],
  [/^(meet|meeting|sit down with|have a meeting)\b/, 'meeting'],
  [/^(visit|go to|stop by|drop by|walk|go see|see)\b/, 'visit'],
];

/** The record right after a task's verb: "call Cedar Tower's GC", "visit Cedar Tower". */
async function verbRecord(
  scope: ToolScope,
  q: Question,
  body: Span,
): Promise<{ found: Found[]; span: Span; nameSpan: Span; phrase: string } | null> {
  const text = q.lower.slice(body[0], body[1]);
  const verb = TASK_VERBS.map(([pattern]) => pattern.exec(text.trim())).find(Boolean);
  if (!verb) return null;
  const start = body[0] + text.indexOf(verb[0]) + verb[0].length;
  const rest = q.lower.slice(start, body[1]);
  const owner = /('s|s')\s+(gc|g\.c\.|general contractor|organizer|owner|contact|contacts)\s*$/.exec(rest);
  const end = owner ? start + owner.index : body[1];
  const nameSpan: Span = [start + (rest.length - rest.trimStart().length), end];
  const phrase = q.original(nameSpan);
  const found = phrase ? await resolveRecords(scope, phrase) : [];
  return found.length ? { found, span: nameSpan, nameSpan, phrase } : null;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The record a trailing "on/of/at/for X" names, searched from the longest candidate phrase to the shortest. */
async function trailingRecord(
  scope: ToolScope,
  q: Question,
  body: Span,
  prefer: readonly TypeInfo[] = [],
): Promise<{ found: Found[]; span: Span; nameSpan: Span; phrase: string } | null> {
  const text = q.lower.slice(body[0], body[1]);
  const pattern = /(?<![\w-])(?:of|on|at|for|about|to|with|from|in)\s+(?=\S)/g;
  for (const match of text.matchAll(pattern)) {
    const start = body[0] + match.index! + match[0].length;
    let end = body[1];
    const rest = q.lower.slice(start, end);
    // A trailing clause is not part of a name ("Cedar Tower about the crane", "this site tomorrow").
    const cut = /\s+(?:about|regarding|saying|that|because|so)\b/.exec(rest);
    if (cut) end = start + cut.index;
    const phrase = q.original([start, end]);
    const found = await resolveRecords(scope, phrase, prefer);
    if (found.length) return { found, span: [body[0] + match.index!, end], nameSpan: [start, end], phrase };
  }
  return null;
}

export async function understand(scope: ToolScope, text: string, previous?: AnswerList | null): Promise<Plan> {
  const plan = await read(scope, text, previous ?? null);
  if (plan.kind === 'refuse' && plan.reason === 'not_understood' && plan.detail)
    return { ...plan, closest: await closestWords(scope, plan.detail) };
  return plan;
}

async function read(scope: ToolScope, text: string, previous: AnswerList | null): Promise<Plan> {
  const q = new Question(text.trim().replace(/[?!.]+$/, ''));
  const lower = q.lower;
  if (
    !lower.trim() ||
    /^(help|\?+|hi|hello|hey|what can you (do|answer|tell me)|what (can|should) i ask( you)?|what do you know|how do you work|how does this work)\b/.test(
      lower,
    )
  )
    return { kind: 'help' };

  const proposal = await proposalPlan(scope, q);
  if (proposal) return proposal;

  if (/(?<![\w-])(delete|remove|erase|destroy|wipe|purge|drop)(?![\w-])/.test(lower))
    return { kind: 'refuse', reason: 'cannot_delete' };
  if (/^(please\s+)?(send|e-?mail|text|sms|message|post|tweet|publish|forward|share)\b/.test(lower))
    return { kind: 'refuse', reason: 'cannot_send' };

  const followUp = previous ? await followUpPlan(scope, q, previous) : null;
  if (followUp) return followUp;

  if (
    /(?<![\w-])(market share|union share|share of (the )?(market|work|sites|construction)|union density)(?![\w-])/.test(
      lower,
    )
  )
    return marketSharePlan(scope, q);

  const field = await fieldPlan(scope, q);
  if (field) return field;

  const describe = q.match(
    /^(?:tell me about|what do (?:we|you|i) (?:know|have) (?:about|on)|show me|show|open|describe|summari[sz]e|give me (?:a )?summary of|details (?:of|for|on|about)|info(?:rmation)? (?:on|about)|look up|lookup|who is|what is)\s+(.+)$/,
  );
  if (describe) {
    const span = (describe as any).indices[1] as Span;
    // "show me union sites" reads whole as a list: no name lookup (a search of every named type) is needed.
    const named = lower.slice(span[0], span[1]).trim();
    const listed = /^(this|it|this \w+)$/.test(named) ? null : await recordsPlan(scope, q);
    if (listed?.kind === 'records' && listed.mode === 'list') return listed;
    const found = await resolveRecords(scope, q.original(span));
    if (found.length > 1) return ambiguous(q, span, found);
    if (found.length) return { kind: 'describe', records: found };
    if (!listed) return { kind: 'refuse', reason: 'no_context' };
    // "tell me about Nowhere Yard" names a record that is not there (or not readable).
    if (listed.kind !== 'refuse' || listed.reason !== 'not_understood') return listed;
    // A typo or a part of a name: the one clearly closest record, else the closest ones offered.
    const close = await closestRecords(scope, q.original(span));
    if (close.length === 1 && close[0].guessedFrom) return { kind: 'describe', records: close };
    if (close.length) return ambiguous(q, span, close);
    return { kind: 'refuse', reason: 'no_record', detail: q.original(span) };
  }

  return recordsPlan(scope, q);
}

/** Several records have that name: each is offered, told apart, as the same question about it alone. */
const ambiguous = (q: Question, span: Span, found: Found[]): Plan => ({
  kind: 'refuse',
  reason: 'ambiguous',
  detail: q.original(span),
  matches: found,
  retry: q.replaced(span, '{record}'),
});

const unresolved = (q: Question, span: Span, found: Found[]): Plan =>
  found.length ? ambiguous(q, span, found) : { kind: 'refuse', reason: 'no_record', detail: q.original(span) };

async function proposalPlan(scope: ToolScope, q: Question): Promise<Plan | null> {
  const task = q.match(
    /^(?:please\s+)?(?:can you\s+|could you\s+)?(remind me to|remind me about|create (?:a |an )?(?:task|reminder)(?: to| for)?|add (?:a |an )?(?:task|reminder)(?: to| for)?|make (?:a |an )?task(?: to| for)?|set (?:a |an )?reminder(?: to| for)?|schedule (?:a |an )?|plan (?:a |an )?|i need to|i have to|i must)\s+(.+)$/,
  );
  if (task) {
    const [, bodySpan] = (task as any).indices.slice(1) as Span[];
    const bodyText = q.lower.slice(bodySpan[0], bodySpan[1]);
    const when = whenIn(bodyText, scope.now);
    const dateSpan: Span | null = when ? [bodySpan[0] + when.span[0], bodySpan[0] + when.span[1]] : null;
    const body: Span = dateSpan && dateSpan[1] >= bodySpan[1] - 1 ? [bodySpan[0], dateSpan[0]] : bodySpan;
    const taskType =
      TASK_VERBS.find(([pattern]) => pattern.test(q.lower.slice(body[0], body[1]).trim()))?.[1] ??
      (/\bschedule (a |an )?visit|\bvisit\b/.test(bodyText) ? 'visit' : /\bmeet/.test(bodyText) ? 'meeting' : 'call');
    const target = (await trailingRecord(scope, q, body)) ?? (await verbRecord(scope, q, body));
    if (target && target.found.length > 1) return ambiguous(q, target.nameSpan, target.found);
    let title = q
      .original(body)
      .replace(/\s+/g, ' ')
      .replace(/[,;:]$/, '');
    if (dateSpan && dateSpan[1] < body[1])
      title = `${q.original([body[0], dateSpan[0]])} ${q.original([dateSpan[1], body[1]])}`.trim();
    const record = target?.found[0];
    return {
      kind: 'propose',
      input: {
        kind: 'create_task',
        title: capitalise(title),
        task_type: taskType,
        due: when?.at,
        record: record ? { type: record.info.type, id: record.row.id } : null,
      },
      mention: /\b(gc|g\.c\.|general contractor)\b/.test(bodyText) ? 'general_contractor_id' : undefined,
    };
  }

  const note = q.match(
    /^(?:please\s+)?(?:log|add|write|make|leave|record|put|take)\s+(?:a |an )?note\s+(?:on|to|for|about|in|under)\s+(.+?)(?:\s*:\s*|\s+saying\s+|\s+that says\s+|\s+that reads\s+|\s*,\s*|\s+-\s+)(.+)$/,
  );
  if (note) {
    const [recordSpan, bodySpan] = (note as any).indices.slice(1) as Span[];
    const found = await findRecords(scope, q.original(recordSpan));
    if (found.length !== 1) return unresolved(q, recordSpan, found);
    return {
      kind: 'propose',
      input: {
        kind: 'log_note',
        body: q.original(bodySpan),
        record: { type: found[0].info.type, id: found[0].row.id },
      },
    };
  }

  const assign = q.match(/^(?:please\s+)?(?:assign|give|hand)\s+(.+?)\s+to\s+(.+)$/);
  if (assign) {
    const [recordSpan, personSpan] = (assign as any).indices.slice(1) as Span[];
    const found = await findRecords(scope, q.original(recordSpan));
    if (found.length !== 1) return unresolved(q, recordSpan, found);
    return {
      kind: 'propose',
      input: {
        kind: 'assign',
        assignee: q.original(personSpan),
        record: { type: found[0].info.type, id: found[0].row.id },
      },
    };
  }

  const change =
    q.match(
      /^(?:please\s+)?(?:change|set|update|switch|move)\s+(?:the\s+)?(.+?)\s+(?:of|on|for)\s+(.+?)\s+to\s+(.+)$/,
    ) ?? q.match(/^(?:please\s+)?(?:mark|set|flag)\s+()(.+?)\s+as\s+(.+)$/);
  if (change) {
    const [fieldSpan, recordSpan, valueSpan] = (change as any).indices.slice(1) as Span[];
    const found = await findRecords(scope, q.original(recordSpan));
    if (found.length !== 1) return unresolved(q, recordSpan, found);
    const info = found[0].info;
    const named = fieldSpan[0] < fieldSpan[1] ? fieldNamed(q.lower.slice(fieldSpan[0], fieldSpan[1]), [info]) : null;
    let field = named && named.field !== 'address' && named.field !== 'contractors' ? named.field : undefined;
    if (!field && fieldSpan[0] === fieldSpan[1]) {
      // "mark X as Bidding": the field whose choices or related names hold the value.
      const value = q.lower.slice(valueSpan[0], valueSpan[1]).trim();
      const words = await (await vocabularyFor(scope)).valueWords(info);
      field = words.find((w) => w.phrases.includes(value))?.field;
    }
    if (!field)
      return { kind: 'refuse', reason: 'not_understood', detail: q.original(fieldSpan) || q.original(valueSpan) };
    return {
      kind: 'propose',
      input: {
        kind: 'update_field',
        field: field.slug,
        value: q.original(valueSpan),
        record: { type: info.type, id: found[0].row.id },
      },
    };
  }
  return null;
}

async function fieldPlan(scope: ToolScope, q: Question): Promise<Plan | null> {
  // "when does Cedar Tower bid", "when does Cedar Tower kick off": the date the verb is about.
  const when = q.match(
    /^when (?:does|do|will|did|is) (.+?) (?:go out to )?(bid|bidding|start|starting|kick off|kick-off|kicking off)$/,
  );
  if (when) {
    const [recordSpan] = (when as any).indices.slice(1) as Span[];
    const slug = /^bid/.test(when[2]) ? 'bid_date' : 'kickoff_date';
    const types = scope.types.filter((t) => t.fields.has(slug));
    const found = await resolveRecords(scope, q.original(recordSpan), types);
    if (found.length) return { kind: 'field', field: found[0].info.fields.get(slug)!, records: found };
  }
  const patterns = [
    /^(?:who|what|when|which|where)(?:'s|s| is| are| was| were| does| do)?\s+(?:the\s+)?(.+?)\s+(?:on|of|for|at|in|with)\s+(.+)$/,
    /^(?:who|what|when|which|where)(?:'s|s| is| are| was| were)?\s+()(.+?)(?:'s|s')\s+(.+)$/,
  ];
  for (const [index, pattern] of patterns.entries()) {
    const match = q.match(pattern);
    if (!match) continue;
    const spans = (match as any).indices as Span[];
    const [fieldSpan, recordSpan] = index === 0 ? [spans[1], spans[2]] : [spans[3], spans[2]];
    const named = fieldNamed(q.lower.slice(fieldSpan[0], fieldSpan[1]), scope.types);
    if (!named?.types.length) continue;
    const found = await findRecords(scope, q.original(recordSpan), named.types);
    if (found.length > 1 && found[0].closest) return ambiguous(q, recordSpan, found);
    if (!found.length) {
      const phrase = q.lower.slice(recordSpan[0], recordSpan[1]).trim();
      if (/^(this|it)\b/.test(phrase) && !scope.context) return { kind: 'refuse', reason: 'no_context' };
      return { kind: 'refuse', reason: 'no_record', detail: q.original(recordSpan) };
    }
    return { kind: 'field', field: named.field, records: found };
  }
  return null;
}

async function marketSharePlan(scope: ToolScope, q: Question): Promise<Plan> {
  q.take(
    q.find([
      'market share',
      'union market share',
      'union share',
      'share of the market',
      'share of market',
      'share of work',
      'share of the work',
      'share of sites',
      'share of construction',
      'union density',
    ])?.span,
  );
  const period = periodIn(q.lower, scope.now) ?? undefined;
  if (period) q.take(period.span);
  const vocabulary = await vocabularyFor(scope);
  const regions = await vocabulary.regions();
  const region = matchRegion(q, regions);
  let trade: { id: number; name: string } | undefined;
  if (scope.typeOf('trade')) {
    const trades = await vocabulary.names('trades');
    const hit = q.find(trades.map((t) => t.name.toLowerCase()));
    if (hit) {
      q.take(hit.span);
      trade = trades.find((t) => t.name.toLowerCase() === hit.phrase);
      q.take(q.find(['trade', 'craft'])?.span);
    }
  }
  q.take(q.find(['report', 'union', 'what', 'our'])?.span);
  const leftover = q.leftover();
  if (leftover.length) return { kind: 'refuse', reason: 'not_understood', detail: leftover.join(' ') };
  return { kind: 'market_share', region, trade, period };
}

/** A region named with its kind ("Kern County", "county of Kern", "LA County"), else by its name alone when `bare`. */
function matchRegion(q: Question, regions: readonly RegionWord[], bare = true): RegionWord | undefined {
  const named = regions.flatMap((region) => region.phrases.map((phrase) => ({ phrase, region })));
  const hit = q.find(named.map((n) => n.phrase));
  if (hit) {
    q.take(hit.span);
    return named.find((n) => n.phrase === hit.phrase)!.region;
  }
  if (!bare) return undefined;
  const alone = q.find(regions.map((r) => r.bare).filter((n) => n.length > 2));
  if (!alone) return undefined;
  q.take(alone.span);
  return regions.find((r) => r.bare === alone.phrase);
}

/** The list a follow-up refines: the last answer's, and its record type. */
interface Base {
  info: TypeInfo;
  list: AnswerList;
}

async function recordsPlan(scope: ToolScope, q: Question, base?: Base): Promise<Plan> {
  const vocabulary = await vocabularyFor(scope);
  const words: Description = { adjectives: [], qualifiers: [] };
  const filter: Record<string, unknown> = {};
  const lower = q.lower;

  // What kind of records.
  // The record type named first ("sites that have a general contractor" are sites).
  // (a type name just before another is a word about it: "union sites", "contractor contacts").
  const typeHits = q.all(typePhrases(scope.types).map((t) => t.phrase));
  const typeHit =
    typeHits.find((hit) => !typeHits.some((other) => /^\s+$/.test(q.lower.slice(hit.span[1], other.span[0])))) ??
    typeHits[0];
  let info = typeHit ? typePhrases(scope.types).find((t) => t.phrase === typeHit.phrase)!.info : undefined;
  // "top contractors by number of sites": sites are counted, by their contractor.
  const top = base || !info ? null : relationRank(q, scope.types);
  if (top && 'plan' in top) return top.plan;
  if (top) info = top.counted;
  // In a follow-up, another type's name is a word about the records ("which are union": the choice, not unions).
  else if (typeHit && (!base || info === base.info)) q.take(typeHit.span);
  if (base) info = base.info;
  if (!info && /(?<![\w-])(overdue|due|to-?do|on my plate)(?![\w-])/.test(lower)) info = scope.typeOf('task');
  if (!info) return { kind: 'refuse', reason: 'not_understood', detail: q.leftover().join(' ') };

  // Near a place.
  const near = q.match(
    /(?<![\w-])(?:near|nearby|close to|around|within\s+(\d+(?:\.\d+)?)\s*(miles?|mi|km|kilometers?|kilometres?)\s+(?:of|from))\s+(.+)$/,
  );
  if (near) {
    const spans = (near as any).indices as Span[];
    const radius = near[1] ? Number(near[1]) * (/^(mi|mile)/.test(near[2]) ? 1.609344 : 1) : 10;
    q.take(spans[0]);
    const rest = await filtersFrom(scope, q, vocabulary, info, filter, words);
    if (rest) return rest;
    return { kind: 'near', info, place: q.original(spans[3]), radiusKm: radius, filter, words };
  }

  const measure = top?.measure ?? measureIn(q, info) ?? undefined;
  const rank = top || measure ? undefined : rankIn(q, info);
  const amount = q.match(AMOUNT);
  if (amount) q.take([amount.index, amount.index + amount[0].length]);
  let groupBy: Extract<Plan, { kind: 'records' }>['groupBy'] = top
    ? { field: top.field.slug, label: top.field.name }
    : undefined;
  const group = top ? null : q.match(GROUP);
  if (group) {
    const spans = (group as any).indices as Span[];
    const what = group[1].trim().replace(/^the\s+/, '');
    const interval = (['week', 'month', 'quarter', 'year'] as const).find((i) => what === i || what === `${i}s`);
    if (interval) groupBy = { field: 'period', label: interval, interval };
    else {
      const named =
        fieldNamed(what.replace(/s$/, ''), [info]) ??
        fieldNamed(what, [info]) ??
        (/^(type|category|kind)s?$/.test(what) && info.def.categoryColumn
          ? { field: info.fields.get(info.def.categoryColumn)!, types: [info] }
          : null);
      if (!named || typeof named.field === 'string')
        return { kind: 'refuse', reason: 'not_understood', detail: `by ${what}` };
      groupBy = { field: named.field.slug, label: named.field.name };
    }
    q.take(spans[0]);
    q.take(q.find(['own', 'owns', 'carry', 'carries', 'hold', 'holds', 'handle', 'handles'])?.span);
  }

  const rest = await filtersFrom(scope, q, vocabulary, info, filter, words, groupBy, base?.list);
  if (rest) return rest;
  if (!base) {
    const mode = groupBy ? 'group' : (amount && !rank) || measure ? 'count' : 'list';
    return { kind: 'records', mode, info, filter, words, groupBy, rank, measure, top: top?.limit };
  }
  // A follow-up: the last answer's list, refined; counted, listed or broken down as asked, else as the last answer was.
  const listing = /^(?:list|show|name|give)\b|(?<![\w-])which(?![\w-])/.test(lower);
  if (!groupBy && !amount && !rank && !listing && base.list.mode === 'group' && base.list.group_by)
    groupBy = base.list.group_by as Extract<Plan, { kind: 'records' }>['groupBy'];
  const kept = !groupBy && !amount && !rank && !listing && !measure ? base.list.measure : undefined;
  const mode = groupBy
    ? 'group'
    : (amount && !rank) || measure || kept
      ? 'count'
      : rank || listing
        ? 'list'
        : base.list.mode;
  return { kind: 'records', mode, info, ...refined(base.list, filter, words), groupBy, rank, measure: measure ?? kept };
}

/** Words that point back at the last answer's records ("of those", "them"), or carry its question on ("and ..."). */
const REFERS =
  /(?<![\w-])(?:of those|of these|of them|among those|among these|among them|out of those|out of these|out of them|from those|from these|from them|those ones|those|these|them|their|they|the same ones|the same)(?![\w-])/;
const CARRIES_ON = /^(?:and|but|also|what about|how about|only|just)(?![\w-])/;

/**
 * A follow-up of the last answer's list ("them", "of those, which are union", "and in Kern County?"): the same record
 * type and filters, refined by what the question adds or changes. A question naming another record type is a new
 * question, and so is one that says nothing pointing back.
 */
async function followUpPlan(scope: ToolScope, asked: Question, previous: AnswerList): Promise<Plan | null> {
  const info = scope.typeOf(previous.type);
  const q = new Question(asked.text);
  const refer = q.match(REFERS);
  const opener = q.match(CARRIES_ON);
  if (!info || (!refer && !opener)) return null;
  // Names of the type's fields and values ("general contractor", "union") are words about its records, not other types.
  const words = new Question(asked.text);
  const values = (await (await vocabularyFor(scope)).valueWords(info)).flatMap((word) => word.phrases);
  for (const hit of words.all([...values, ...[...info.fields.values()].flatMap(fieldPhrases)])) words.take(hit.span);
  const phrases = typePhrases(scope.types);
  const named = words
    .all(phrases.map((t) => t.phrase))
    .map((hit) => phrases.find((t) => t.phrase === hit.phrase)!.info);
  if (named.some((other) => other.type !== info.type)) return null;
  if (refer) q.take([refer.index, refer.index + refer[0].length]);
  if (opener) q.take([opener.index, opener.index + opener[0].length]);
  return recordsPlan(scope, q, { info, list: previous });
}

/** The slot a filter key fills: its field ("bid_date_gte": bid_date); a city and a region are both where. */
const slotOf = (key: string) => {
  const field = key.replace(/_(gte|lte|gt|lt|neq|like|null)$/, '');
  return field === 'city' || field === 'region_ids' ? 'where' : field;
};

/** The last answer's filters and words with a follow-up's: what it names again replaces the old value, the rest stays. */
function refined(list: AnswerList, filter: Record<string, unknown>, words: Description) {
  const slots = new Set(Object.keys(filter).map(slotOf));
  const sources = list.words.sources ?? {};
  const stays = (word: string) => !(sources[word] ?? []).some((key) => slots.has(slotOf(key)));
  const adjectives = [...list.words.adjectives.filter(stays), ...words.adjectives].filter(
    (word, i, all) => all.indexOf(word) === i,
  );
  return {
    filter: {
      ...Object.fromEntries(Object.entries(list.filter).filter(([key]) => !slots.has(slotOf(key)))),
      ...filter,
    },
    words: {
      adjectives: adjectives.includes('your') ? ['your', ...adjectives.filter((a) => a !== 'your')] : adjectives,
      qualifiers: [...list.words.qualifiers.filter(stays), ...words.qualifiers],
      sources: { ...Object.fromEntries(Object.entries(sources).filter(([word]) => stays(word))), ...words.sources },
    },
  };
}

/**
 * Reads the filters of a question about `info` records into `filter` (as the list API takes them) and `words`;
 * answers a refusal when something is left that it did not understand.
 */
async function filtersFrom(
  scope: ToolScope,
  q: Question,
  vocabulary: Vocabulary,
  info: TypeInfo,
  filter: Record<string, unknown>,
  words: Description,
  groupBy?: Extract<Plan, { kind: 'records' }>['groupBy'],
  previous?: AnswerList,
): Promise<Plan | null> {
  const lower = q.lower;
  // Which filter keys each word added since the last step stands for (Description.sources).
  let seen = { filter: JSON.stringify(Object.entries(filter)), words: [...words.adjectives, ...words.qualifiers] };
  const credit = () => {
    const before = new Map(JSON.parse(seen.filter) as Array<[string, unknown]>);
    const keys = Object.keys(filter).filter((key) => JSON.stringify(filter[key]) !== JSON.stringify(before.get(key)));
    for (const word of [...words.adjectives, ...words.qualifiers])
      if (!seen.words.includes(word) && keys.length) (words.sources ??= {})[word] = keys;
    seen = { filter: JSON.stringify(Object.entries(filter)), words: [...words.adjectives, ...words.qualifiers] };
  };
  // Whose: "my sites", "my tasks", "assigned to me".
  const mine = q.find(['assigned to me', 'i own', 'i organize', 'mine', 'my', 'my own']);
  if (mine) {
    const owner = info.type === 'task' ? 'assignee_id' : info.fields.has('user_id') ? 'user_id' : null;
    if (!owner) return { kind: 'refuse', reason: 'not_understood', detail: mine.phrase };
    filter[owner] = scope.user.id;
    q.take(mine.span);
    words.adjectives.unshift('your');
  }
  credit();

  // Tasks: open, done, overdue.
  if (info.type === 'task') {
    const state = q.find([
      'overdue',
      'late',
      'past due',
      'open',
      'outstanding',
      'pending',
      'not done',
      'incomplete',
      'unfinished',
      'done',
      'completed',
      'finished',
      'closed',
    ]);
    if (state) {
      q.take(state.span);
      if (['done', 'completed', 'finished', 'closed'].includes(state.phrase)) {
        filter.completed_at_null = false;
        words.adjectives.push('completed');
      } else {
        filter.completed_at_null = true;
        if (['overdue', 'late', 'past due'].includes(state.phrase)) {
          filter.due_at_lt = scope.now.toISOString();
          words.adjectives.push('overdue');
        } else words.adjectives.push('open');
      }
    }
  }
  credit();

  // When: a period and the date it is about (default: when the record was added).
  const period = periodIn(lower, scope.now);
  if (period && q.free(period.span)) {
    q.take(period.span);
    const candidates = DATE_WORDS.filter(([, slug]) => info.fields.has(slug));
    let dateField: string | undefined;
    let dateWord = '';
    for (const [phrases, slug] of candidates) {
      const hit = q.find(phrases);
      if (hit) {
        dateField = slug;
        dateWord = hit.phrase;
        q.take(hit.span);
        break;
      }
    }
    if (groupBy?.field === 'period') {
      groupBy.dateField = dateField ?? 'created_at';
      groupBy.period = period;
    } else {
      const slug = dateField ?? dateFieldOf(info, previous) ?? (info.type === 'task' ? 'due_at' : 'created_at');
      Object.assign(filter, rangeFilter(slug, period));
      const fieldName = info.fields.get(slug)?.name ?? slug;
      words.qualifiers.push(
        slug === 'created_at'
          ? `added ${period.label}`
          : `with a ${fieldName.replace(/ on$/, ' date')} ${period.label}`.replace('with a due ', 'due '),
      );
      if (dateWord && slug === 'created_at') words.adjectives.push('new');
    }
  } else if (groupBy?.field === 'period') {
    const hit = DATE_WORDS.filter(([, slug]) => info.fields.has(slug))
      .map(([phrases, slug]) => ({ hit: q.find(phrases), slug }))
      .find((x) => x.hit);
    groupBy.dateField = hit?.slug ?? 'created_at';
    if (hit?.hit) q.take(hit.hit.span);
  }
  credit();

  // Where: a region named with its kind ("LA County"), else a city, else a region by its name alone. A name that is
  // both a city and a region ("Los Angeles") is asked back as two readings.
  const regions = info.fields.has('region_ids') ? await vocabulary.regions() : [];
  let region = matchRegion(q, regions, false);
  if (!region && info.fields.has('city')) {
    const cities = await vocabulary.cities(info);
    const spelled = cities.flatMap((city) => {
      const lower = city.toLowerCase();
      return [
        { phrase: `city of ${lower}`, city, explicit: true },
        { phrase: `${lower} city`, city, explicit: true },
        { phrase: lower, city, explicit: false },
      ];
    });
    const hit = q.find(spelled.map((c) => c.phrase));
    if (hit) {
      const { city, explicit } = spelled.find((c) => c.phrase === hit.phrase)!;
      const twin = explicit ? undefined : regions.find((r) => r.bare === city.toLowerCase());
      if (twin)
        return {
          kind: 'readings',
          phrase: city,
          readings: [
            { label: `the city of ${city}`, question: q.replaced(hit.span, `the city of ${city}`) },
            { label: twin.name, question: q.replaced(hit.span, twin.name.replace(/,\s*[A-Z]{2}$/, '')) },
          ],
        };
      q.take(hit.span);
      filter.city = city;
      words.qualifiers.unshift(`in ${city}`);
    }
  }
  if (!region && !filter.city && regions.length) region = matchRegion(q, regions, true);
  if (region) {
    filter.region_ids = [region.id];
    words.qualifiers.unshift(`in ${region.name.replace(/,\s*[A-Z]{2}$/, '')}`);
  }
  credit();

  // Amounts: "over $5 million", "worth less than $500k", "more than 10,000 hours".
  const sum = amountIn(q, info);
  if (sum) {
    filter[`${sum.field.slug}_${sum.op}`] = sum.value;
    words.qualifiers.push(`with ${sum.field.name} ${sum.words}`);
  }
  credit();

  // Absence and presence: "with no contact", "without a general contractor", "that have a bid date".
  const blank = fieldPresence(q, info);
  for (const { field, present } of blank) {
    filter[`${field.slug}_null`] = !present;
    const article = field.name.endsWith('s') ? '' : /^[aeiou]/i.test(field.name) ? 'an ' : 'a ';
    words.qualifiers.push(`${present ? 'with' : 'without'} ${article}${field.name}`);
  }
  credit();

  // What: choices (the record type's own category first), related names, yes/no fields.
  const values = (await vocabulary.valueWords(info)).sort((a, b) => a.rank - b.rank);
  for (;;) {
    const hits = values.map((word) => ({ word, hit: q.find(word.phrases) })).filter((x) => x.hit);
    if (!hits.length) break;
    hits.sort((a, b) => a.word.rank - b.word.rank || b.hit!.phrase.length - a.hit!.phrase.length);
    const { word, hit } = hits[0];
    q.take(hit!.span);
    const slug = word.field.slug;
    const negated = /(?:not|non|without|no)\s+$/.test(lower.slice(Math.max(0, hit!.span[0] - 8), hit!.span[0]));
    if (word.field.kind === 'boolean') {
      filter[slug] = !negated;
      if (negated)
        q.take([
          hit!.span[0] - (/(without|not|non|no)\s+$/.exec(lower.slice(0, hit!.span[0]))?.[0].length ?? 0),
          hit!.span[0],
        ]);
      words.qualifiers.push(`${negated ? 'without' : 'with'} ${word.field.name.replace(/^is /, '')}`);
      credit();
      continue;
    }
    const multiple = word.field.kind.endsWith('[]');
    const current = filter[slug];
    if (current !== undefined && !multiple) {
      filter[slug] = [...(Array.isArray(current) ? current : [current]), word.value];
    } else filter[slug] = multiple ? [...((current as unknown[]) ?? []), word.value] : word.value;
    if (word.rank === 0) words.adjectives.push(word.label);
    else words.qualifiers.push(`with ${word.field.name} ${word.label}`);
    credit();
  }

  // On a record: "tasks on Cedar Tower", "grievances at Cedar Tower", "contacts at Apex Builders".
  const leftover = q.leftover();
  if (leftover.length) {
    const linked = await linkedRecordFilter(scope, q, info);
    if (linked && 'plan' in linked) return linked.plan;
    if (linked) {
      Object.assign(filter, linked.filter);
      words.qualifiers.push(linked.words);
      credit();
    }
  }
  // Words that name the type's category or the field again ("type", "status") are understood.
  q.take(
    q.find([
      'type',
      'types',
      'status',
      'category',
      'kind',
      'sites',
      'records',
      'right now',
      'currently',
      'active',
      'in the system',
    ])?.span,
  );
  const rest = q.leftover();
  if (rest.length) return { kind: 'refuse', reason: 'not_understood', detail: rest.join(' ') };
  return null;
}

/** The date field of a range in the last answer's filters: "and next month?" asks about the same date. */
function dateFieldOf(info: TypeInfo, previous?: AnswerList): string | undefined {
  for (const key of Object.keys(previous?.filter ?? {})) {
    const field = info.fields.get(key.replace(/_(gte|lt)$/, ''));
    if (key !== field?.slug && (field?.kind === 'date' || field?.kind === 'datetime')) return field.slug;
  }
  return undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twenty: 20,
};
const COMPARE: Record<string, { op: 'gt' | 'gte' | 'lt' | 'lte'; words: string }> = {
  over: { op: 'gt', words: 'over' },
  'more than': { op: 'gt', words: 'over' },
  above: { op: 'gt', words: 'over' },
  'greater than': { op: 'gt', words: 'over' },
  'bigger than': { op: 'gt', words: 'over' },
  'at least': { op: 'gte', words: 'of at least' },
  under: { op: 'lt', words: 'under' },
  'less than': { op: 'lt', words: 'under' },
  below: { op: 'lt', words: 'under' },
  'smaller than': { op: 'lt', words: 'under' },
  'at most': { op: 'lte', words: 'of at most' },
  'up to': { op: 'lte', words: 'of at most' },
};
const SCALE: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mil: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};

/** The number fields of a record type that hold money, then those that hold hours. */
const moneyField = (info: TypeInfo) =>
  [...info.fields.values()].find((f) => f.filterable && /\b(value|budget|amount|cost|price)\b/i.test(f.name));
const hoursField = (info: TypeInfo) => [...info.fields.values()].find((f) => f.filterable && /\bhours\b/i.test(f.name));

/** A bound on an amount: "over $5 million" (the money field), "more than 10,000 hours" (the hours field). */
function amountIn(q: Question, info: TypeInfo) {
  const compare = Object.keys(COMPARE).join('|');
  const hit = q.match(
    new RegExp(
      `(?:(?:worth|valued|valued at|value|budget|estimated value|with an? (?:value|budget|estimated value)(?: of)?)\\s+)?(${compare})\\s+(\\$)?\\s?(\\d[\\d,]*(?:\\.\\d+)?)\\s*(k|thousand|m|mil|million|b|bn|billion)?(?![\\w])(?:\\s+(dollars|in value|value|worth|hours|hrs))?`,
    ),
  );
  if (!hit) return null;
  const hours = /^h/.test(hit[5] ?? '');
  const field = hours ? hoursField(info) : moneyField(info);
  if (!field || (!hit[2] && !hit[4] && !hit[5] && !/worth|valued|value|budget/.test(hit[0]))) return null;
  const value = Number(hit[3].replace(/,/g, '')) * (SCALE[hit[4] ?? ''] ?? 1);
  q.take([hit.index, hit.index + hit[0].length]);
  const { op, words } = COMPARE[hit[1]];
  const shown = hours ? `${value.toLocaleString('en-US')} hours` : `$${value.toLocaleString('en-US')}`;
  return { field, op, value, words: `${words} ${shown}` };
}

/** A total or an average: "total value of union sites", "average estimated hours", "how much are they worth". */
function measureIn(q: Question, info: TypeInfo): Measure | null {
  const hit = q.match(
    /(?<![\w-])(total|sum of|sum|combined|overall|average|avg|mean)\s+(?:of\s+)?(?:the\s+)?(estimated value|value|budget|cost|worth|estimated hours|hours)(?:\s+of)?(?![\w-])/,
  );
  const worth = hit ? null : q.match(/^how much(?:\s+(?:are|is|were))?\b/);
  const worthEnd = worth ? q.match(/(?<![\w-])worth(?:\s+(?:in total|altogether|combined|together))?$/) : null;
  if (!hit && !(worth && worthEnd)) return null;
  const hours = hit ? /hours/.test(hit[2]) : false;
  const field = hours ? hoursField(info) : moneyField(info);
  if (!field) return null;
  if (hit) q.take([hit.index, hit.index + hit[0].length]);
  else {
    q.take([worth!.index, worth!.index + worth![0].length]);
    q.take([worthEnd!.index, worthEnd!.index + worthEnd![0].length]);
  }
  const fn = hit && /average|avg|mean/.test(hit[1]) ? 'avg' : 'sum';
  return { fn, field: field.slug, words: `${fn === 'avg' ? 'average' : 'total'} ${field.name}` };
}

/**
 * A ranking across a relation: "top contractors by number of sites", "which contractors have the most sites", or by
 * the total of a money field ("top contractors by total value", "which contractors have the highest site value"). The
 * records counted (or added up) are the second type's (sites, else the first type with money and a field pointing at
 * the first), grouped by their field pointing at the first (general contractor), and only the groups with the most
 * are told.
 */
function relationRank(
  q: Question,
  types: readonly TypeInfo[],
): { counted: TypeInfo; field: FieldInfo; limit: number; measure?: Measure } | { plan: Plan } | null {
  const phrases = typePhrases(types);
  const names = phrases
    .map((t) => t.phrase)
    .sort((a, b) => b.length - a.length)
    .map(phraseSource)
    .join('|');
  const count = '(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)';
  const value = `(?:total\\s+|combined\\s+|overall\\s+)?(?:(${names})\\s+)?(?:estimated\\s+)?(?:dollar\\s+)?(?:value|volume|worth)`;
  const byValue =
    q.match(
      new RegExp(
        `(?<![\\w-])(?:the\\s+)?(?:top|leading|biggest|largest)(?:\\s+${count})?\\s+(${names})\\s+(?:by|ranked by)\\s+(?:the\\s+)?${value}(?:\\s+of\\s+(?:their\\s+)?(${names}))?(?![\\w-])`,
      ),
    ) ??
    q.match(
      new RegExp(
        `(?<![\\w-])()(?:which|what)\\s+(${names})\\s+(?:have|has|hold|holds|run|runs|got)\\s+the\\s+(?:highest|biggest|largest|most)\\s+${value}()(?![\\w-])`,
      ),
    );
  const hit =
    byValue ??
    q.match(
      new RegExp(
        `(?<![\\w-])(?:the\\s+)?(?:top|leading)(?:\\s+${count})?\\s+(${names})\\s+(?:by|by the|with the most|ranked by)\\s+(?:number of|count of|most)?\\s*(${names})(?![\\w-])`,
      ),
    ) ??
    q.match(
      new RegExp(
        `(?<![\\w-])()(?:which|what)\\s+(${names})\\s+(?:have|has|hold|holds|run|runs|are on|work on|got)\\s+the\\s+most\\s+(${names})(?![\\w-])`,
      ),
    );
  if (!hit) return null;
  const typeOf = (phrase: string | undefined) =>
    phrase ? phrases.find((t) => t.phrase === phrase.replace(/[\s-]+/g, ' '))?.info : undefined;
  const info = typeOf(hit[2]);
  if (!info) return null;
  const pointing = (other: TypeInfo) =>
    [...other.fields.values()].filter((f) => f.filterable && f.target === info.resource);
  const counted = byValue
    ? (typeOf(hit[3] ?? hit[4]) ?? types.find((t) => t.type !== info.type && moneyField(t) && pointing(t).length))
    : typeOf(hit[3]);
  if (!counted || counted.type === info.type) return null;
  const fields = pointing(counted);
  // A single relation ("general contractor") before a list of them ("contractors").
  const field = fields.find((f) => !f.kind.endsWith('[]')) ?? fields[0];
  const money = byValue ? moneyField(counted) : undefined;
  if (!field || (byValue && !money)) return { plan: { kind: 'refuse', reason: 'not_understood', detail: hit[0] } };
  q.take([hit.index, hit.index + hit[0].length]);
  const limit = Math.min(20, hit[1] ? (NUMBER_WORDS[hit[1]] ?? Number(hit[1])) : 5);
  return {
    counted,
    field,
    limit,
    ...(money ? { measure: { fn: 'sum' as const, field: money.slug, words: `total ${money.name}` } } : {}),
  };
}

/** A ranking: "the five biggest sites", "top 10 sites by value", "the smallest contractors". */
function rankIn(q: Question, info: TypeInfo): Extract<Plan, { kind: 'records' }>['rank'] {
  const count = '(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)';
  const hit =
    q.match(
      new RegExp(
        `(?<![\\w-])(?:the\\s+)?(?:top\\s+)?(?:${count}\\s+)?(biggest|largest|most valuable|highest[ -]value|smallest|least valuable)(?![\\w-])`,
      ),
    ) ?? q.match(new RegExp(`(?<![\\w-])(?:the\\s+)?top(?:\\s+${count})?()(?![\\w-])`));
  if (!hit) return undefined;
  const field = moneyField(info);
  if (!field) return undefined;
  q.take([hit.index, hit.index + hit[0].length]);
  q.take(q.find(['by value', 'by estimated value', 'by budget', 'by size'])?.span);
  const limit = Math.min(50, hit[1] ? (NUMBER_WORDS[hit[1]] ?? Number(hit[1])) : 10);
  const smallest = /smallest|least/.test(hit[2] ?? '');
  return {
    field: field.slug,
    order: smallest ? 'asc' : 'desc',
    limit,
    words: `by ${field.name}, ${smallest ? 'smallest' : 'biggest'} first`,
  };
}

const ABSENT =
  '(?:with no|with zero|without any|without an|without a|without|that have no|that has no|who have no|which have no|have no|has no|having no|lacking(?: an| a)?|missing(?: an| a)?|no)';
const PRESENT =
  '(?:that have an?|that has an?|that have|that has|who have an?|which have an?|have an?|has an?|having an?|with an?|with)';

/** The fields of `info` asked to be empty or filled ("with no contact", "that have a general contractor"). */
function fieldPresence(q: Question, info: TypeInfo): Array<{ field: FieldInfo; present: boolean }> {
  const named = [...info.fields.values()]
    .filter((f) => f.filterable && f.kind !== 'boolean' && !f.choices)
    .flatMap((field) =>
      fieldPhrases(field).flatMap((phrase) => [phrase, `${phrase}s`].map((p) => ({ phrase: p.toLowerCase(), field }))),
    )
    .sort((a, b) => b.phrase.length - a.phrase.length);
  const out: Array<{ field: FieldInfo; present: boolean }> = [];
  for (const [words, present] of [
    [ABSENT, false],
    [PRESENT, true],
  ] as const) {
    for (const { phrase, field } of named) {
      if (out.some((o) => o.field.slug === field.slug)) continue;
      const pattern = new RegExp(`(?<![\\w-])${words}\\s+${phraseSource(phrase)}(?![\\w-])`);
      const hit = q.match(pattern);
      if (!hit) continue;
      q.take([hit.index, hit.index + hit[0].length]);
      out.push({ field, present });
    }
  }
  return out;
}

async function linkedRecordFilter(
  scope: ToolScope,
  q: Question,
  info: TypeInfo,
): Promise<{ filter: Record<string, unknown>; words: string } | { plan: Plan } | null> {
  const target = await trailingRecord(scope, q, [0, q.lower.length]);
  if (!target) return null;
  if (target.found.length > 1) return { plan: ambiguous(q, target.nameSpan, target.found) };
  const { info: owner, row } = target.found[0];
  let filter: Record<string, unknown> | null = null;
  if (info.type === 'task') filter = { taskable_type: owner.type, taskable_id: row.id };
  else if (info.type === 'note') filter = { notable_type: owner.type, notable_id: row.id };
  else {
    const field = [...info.fields.values()].find((f) => f.target === owner.resource && f.filterable);
    if (field) filter = { [field.slug]: field.kind.endsWith('[]') ? [row.id] : row.id };
  }
  if (!filter) return null;
  q.take(target.span);
  return { filter, words: `on ${scope.cite(owner, row).label}` };
}

export { wordPattern };

/** The words the assistant knows (record types, fields, choices, regions) nearest to each unknown word, at most five. */
async function closestWords(scope: ToolScope, unknown: string): Promise<string[]> {
  const known = new Set<string>(typePhrases(scope.types).map((t) => t.phrase));
  for (const info of scope.types)
    for (const field of info.fields.values()) {
      for (const phrase of fieldPhrases(field)) known.add(phrase.toLowerCase());
      for (const choice of field.choices ?? []) known.add(choice.label.toLowerCase());
    }
  for (const region of await (await vocabularyFor(scope)).regions()) known.add(region.bare);
  for (const [phrases] of DATE_WORDS) for (const phrase of phrases) known.add(phrase);
  const out: string[] = [];
  for (const word of unknown
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 2)) {
    const near = [...known]
      .map((phrase) => ({ phrase, distance: leven(word, phrase) }))
      .filter((c) => c.distance <= Math.max(1, Math.floor(word.length / 3)))
      .sort((a, b) => a.distance - b.distance || a.phrase.localeCompare(b.phrase));
    for (const { phrase } of near.slice(0, 2)) if (!out.includes(phrase)) out.push(phrase);
  }
  return out.slice(0, 5);
}
