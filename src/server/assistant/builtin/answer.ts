import { performance } from 'node:perf_hooks';
import type { TypeInfo } from '../catalogue.js';
import { plainDate } from '../dates.js';
import type { ToolStep } from '../model/loop.js';
import type { AnswerList, Citation, Proposal } from '../resources.js';
import { runTool, type ToolResult, type ToolScope } from '../tools/index.js';
import { describeRows, viewFiltersOf } from '../tools/records.js';
import { capabilities } from './capabilities.js';
import { type Description, type Measure, type Plan, understand } from './understand.js';
import type { Found } from './vocabulary.js';

/**
 * The built-in assistant (no model configured): reads the question (understand.ts), calls the same tools a model
 * would, as the person, and writes the answer from their results alone. Every figure in an answer is a tool
 * result's; a question it cannot read is refused, with the kinds of question it can answer.
 */
export interface BuiltinAnswer {
  content: string;
  citations: Citation[];
  proposal: Proposal | null;
  outcome: 'answered' | 'refused';
  steps: ToolStep[];
  /** The list a count or list answer is about, kept with it for follow-ups and "Save as view". */
  list: AnswerList | null;
  /** How long reading the question took (understand.ts), in ms, and the process's CPU time meanwhile: logged. */
  understood: { ms: number; cpuMs: number };
}

const fmt = (n: number) => n.toLocaleString('en-US');
/** Record text in Markdown: brackets and emphasis characters escaped, so a name is always plain words. */
export const plain = (text: string) => text.replace(/([\\`*_{}[\]()#+!|<>~])/g, '\\$1');
const link = (c: Pick<Citation, 'label' | 'url'>) => `[${plain(c.label)}](${c.url})`;
const money = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

/** "union sites in Los Angeles County": choice labels in lower case unless written in capitals (PLA, LCMT). */
function describe(info: TypeInfo, words: Description, total?: number) {
  const noun = total === 1 ? info.singular : info.plural;
  const adjectives = words.adjectives
    .filter((a) => a !== 'your')
    .map((a) => (/^[A-Z0-9]{2,}$/.test(a) ? a : a.toLowerCase()));
  return [...adjectives, noun, ...words.qualifiers].join(' ').replace(/\s+/g, ' ').trim();
}

/** "There are 12 ..." or, for the person's own records, "You have 12 ...". */
function amount(words: Description, total: number, what: string) {
  if (words.adjectives.includes('your')) return total ? `You have **${fmt(total)}** ${what}` : `You have no ${what}`;
  return total ? `There ${total === 1 ? 'is' : 'are'} **${fmt(total)}** ${what}` : `There are no ${what}`;
}

/** The details shown beside a record in a list: a few of its fields, the most telling first. */
const DETAIL_FIELDS = [
  'type',
  'site_status_id',
  'status',
  'city',
  'due_at',
  'bid_date',
  'kickoff_date',
  'contractor_id',
  'trade_id',
  'filed_at',
  'signed_at',
  'distance_km',
];
function details(record: Record<string, unknown>): string {
  const parts = DETAIL_FIELDS.filter((key) => record[key] !== undefined && record[key] !== null)
    .slice(0, 3)
    .map((key) => {
      const value = record[key];
      if (key === 'distance_km') return `${value} km`;
      if (key === 'due_at' && typeof value === 'string') return `due ${plainDate(value)}`;
      return Array.isArray(value) ? value.join(', ') : String(dayOrTime(value));
    });
  return parts.length ? ` (${plain(parts.join(', '))})` : '';
}

/** `previous`: the list of the conversation's last answer, which a follow-up ("of those, ...") refines. */
export async function builtinAnswer(
  scope: ToolScope,
  question: string,
  previous: AnswerList | null = null,
): Promise<BuiltinAnswer> {
  const steps: ToolStep[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await runTool(name, args, scope);
    steps.push({ id: `builtin_${steps.length + 1}`, name, arguments: args, result });
    return result;
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const plan = await understand(scope, question, previous);
  const used = process.cpuUsage(cpu);
  const understood = { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  const answer = await compose(scope, plan, call);
  const citations = new Map<string, Citation>();
  // The records the answer links: those the tools returned and those the question named.
  const named =
    plan.kind === 'field' || plan.kind === 'describe'
      ? plan.records
      : plan.kind === 'refuse'
        ? (plan.matches ?? [])
        : [];
  for (const record of [...named.map((f) => scope.cite(f.info, f.row)), ...steps.flatMap((s) => s.result.records)]) {
    if (answer.content.includes(`(${record.url})`) && !citations.has(`${record.type}:${record.id}`))
      citations.set(`${record.type}:${record.id}`, record);
  }
  const list = plan.kind === 'records' && answer.outcome === 'answered' ? answerList(plan) : null;
  return { ...answer, citations: [...citations.values()], steps, list, understood };
}

/** What a count or list answer was about, as kept with it (resources.ts answerListShape). */
function answerList(plan: Extract<Plan, { kind: 'records' }>): AnswerList {
  const { span: _span, ...period } = plan.groupBy?.period ?? { span: null };
  const groupBy = plan.groupBy ? { ...plan.groupBy, ...(plan.groupBy.period ? { period } : {}) } : undefined;
  const described = describe(plan.info, plan.words);
  const title = plan.words.adjectives.includes('your') ? `your ${described}` : described;
  return {
    type: plan.info.type,
    mode: plan.mode,
    title: `${title.charAt(0).toUpperCase()}${title.slice(1)}`,
    filter: plan.filter,
    filters: viewFiltersOf(plan.info, plan.filter),
    words: plan.words,
    ...(groupBy ? { group_by: groupBy } : {}),
    ...(plan.measure ? { measure: plan.measure } : {}),
  };
}

type Call = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
type Composed = Pick<BuiltinAnswer, 'content' | 'proposal' | 'outcome'>;

const refused = (content: string): Composed => ({ content, proposal: null, outcome: 'refused' });
const answered = (content: string, proposal: Proposal | null = null): Composed => ({
  content,
  proposal,
  outcome: 'answered',
});
const cannot = (result: ToolResult) => refused(`I can't answer that: ${result.error}`);

async function compose(scope: ToolScope, plan: Plan, call: Call): Promise<Composed> {
  switch (plan.kind) {
    case 'help':
      return answered(capabilities(scope).intro);
    case 'refuse':
      return refused(refusal(scope, plan));
    case 'records':
      return records(scope, plan, call);
    case 'field':
      return fieldAnswer(scope, plan, call);
    case 'describe':
      return describeAnswer(scope, plan.records, call);
    case 'market_share':
      return marketShareAnswer(plan, call);
    case 'near': {
      const result = await call('records_near', {
        type: plan.info.type,
        place: plan.place,
        radius_km: plan.radiusKm,
        filters: plan.filter,
        limit: 10,
      });
      if (result.error) return cannot(result);
      const data = result.data as {
        place: string;
        radius_km: number;
        total: number;
        list_url: string;
        records: Array<Record<string, any>>;
      };
      const what = describe(plan.info, plan.words, data.total);
      if (!data.total)
        return answered(
          `There are no ${describe(plan.info, plan.words)} within ${data.radius_km} km of ${plain(data.place)}.`,
        );
      const lines = data.records.map((r) => `- ${link(r as any)}${details(r)}`);
      return answered(
        [
          `**${fmt(data.total)}** ${what} within ${data.radius_km} km of ${plain(data.place)}, nearest first:`,
          '',
          ...lines,
          ...(data.total > data.records.length ? ['', `…and ${fmt(data.total - data.records.length)} more.`] : []),
        ].join('\n'),
      );
    }
    case 'propose':
      return proposalAnswer(scope, plan, call);
    case 'readings':
      return answered(
        [
          `"${plain(plan.phrase)}" can be read more than one way. Which do you mean?`,
          '',
          ...plan.readings.map((r) => `- ${askLink(r.label, r.question)}`),
        ].join('\n'),
      );
  }
}

/** A question offered as a button: the assistant page asks it when it is pressed (`/assistant?ask=`). */
export const askLink = (label: string, question: string) =>
  `[${plain(label)}](/assistant?ask=${encodeURIComponent(question).replace(/\(/g, '%28').replace(/\)/g, '%29')})`;

function refusal(scope: ToolScope, plan: Extract<Plan, { kind: 'refuse' }>): string {
  const list = capabilities(scope).short;
  switch (plan.reason) {
    case 'cannot_delete':
      return "I can't delete or remove anything, and nothing written in a record can make me. I can propose a change for you to approve: a new task, a note, a new value for a field, or an assignment.";
    case 'cannot_send':
      return "I can't send messages, mail or anything else outside this app. I can propose a task to remind you, for you to approve.";
    case 'no_record':
      return `I couldn't find a record called "${plain(plan.detail ?? '')}" among those you may read.`;
    case 'no_context':
      return 'Open a record first, then ask about "this".';
    case 'ambiguous':
      return [
        plan.matches?.[0]?.closest
          ? `No record you may read is called "${plain(plan.detail ?? '')}". The closest names:`
          : `${plan.matches?.length ?? 0} records are called "${plain(plan.detail ?? '')}". Which do you mean?`,
        '',
        ...(plan.matches ?? []).slice(0, 10).map((m) => choice(scope, m, plan.retry)),
      ].join('\n');
    default:
      return [
        plan.detail
          ? `I don't know the words "${plain(plan.detail)}", so I won't guess.${plan.closest?.length ? ` The closest words I know: ${plan.closest.map((w) => `"${plain(w)}"`).join(', ')}.` : ''}`
          : "I don't understand that question, so I won't guess.",
        '',
        list,
      ].join('\n');
  }
}

/** One of several records of the same name, told apart by city, street and id, offered as a question about it alone. */
function choice(scope: ToolScope, found: Found, retry?: string): string {
  const { info, row } = found;
  const apart = [info.singular, row.city, row.street ?? row.address, `#${row.id}`].filter(Boolean).map(String);
  const ask = retry ? ` ${askLink('this one', retry.replace('{record}', `${info.singular} #${row.id}`))}` : '';
  return `- ${link(scope.cite(info, row))} (${plain(apart.join(', '))})${ask}`;
}

async function records(_scope: ToolScope, plan: Extract<Plan, { kind: 'records' }>, call: Call): Promise<Composed> {
  const { info, filter, words } = plan;
  if (plan.mode === 'group' && plan.groupBy) {
    const args: Record<string, unknown> = { type: info.type, filters: filter, group_by: plan.groupBy.field };
    if (plan.groupBy.field === 'period') {
      Object.assign(args, { interval: plan.groupBy.interval, date_field: plan.groupBy.dateField ?? 'created_at' });
      if (plan.groupBy.period?.from) args.from = plan.groupBy.period.from;
      if (plan.groupBy.period?.to) args.to = plan.groupBy.period.to;
    }
    // "top contractors by total value": each group's sum of the money field, the biggest first.
    const summed = plan.top && plan.measure?.fn === 'sum' ? plan.measure : undefined;
    if (summed) args.sum = summed.field;
    const result = await call('count_records', args);
    if (result.error) return cannot(result);
    const data = result.data as {
      total: number;
      sum?: number | null;
      groups: Array<{ label: string; count: number; sum?: number; list_url: string | null }>;
    };
    if (plan.top) {
      const named = data.groups.filter((g) => g.list_url !== null && g.label !== 'none').slice(0, plan.top);
      const hidden = data.groups.some((g) => g.list_url === null);
      const label = plan.groupBy.label;
      const labels = named.length === 1 ? label : `${label}s`;
      const heading = summed
        ? `The ${fmt(named.length)} ${labels} with the highest ${summed.words} of ${describe(info, words)} (${money(data.sum ?? 0)} over **${fmt(data.total)}** ${info.plural}):`
        : `The ${fmt(named.length)} ${labels} with the most ${describe(info, words)} (of **${fmt(data.total)}**):`;
      const figure = (g: (typeof named)[number]) =>
        summed
          ? `**${money(g.sum ?? 0)}** (${fmt(g.count)} ${g.count === 1 ? info.singular : info.plural})`
          : `**${fmt(g.count)}**`;
      return answered(
        [
          heading,
          '',
          ...(named.length ? named.map((g) => `- [${plain(g.label)}](${g.list_url}): ${figure(g)}`) : ['- none']),
          ...(hidden ? ['', `${capitalised(info.plural)} of ${label}s you cannot see are left out.`] : []),
        ].join('\n'),
      );
    }
    const by =
      plan.groupBy.field === 'period'
        ? `${plan.groupBy.interval} (${info.fields.get(plan.groupBy.dateField ?? 'created_at')?.name ?? 'date'})`
        : plan.groupBy.label;
    const lines = data.groups.map((g) =>
      g.list_url === null
        ? `- and **${fmt(g.count)}** ${plain(g.label)}`
        : `- [${plain(g.label)}](${g.list_url}): **${fmt(g.count)}**`,
    );
    return answered(
      [
        `**${fmt(data.total)}** ${describe(info, words, data.total)}, by ${by}:`,
        '',
        ...(lines.length ? lines : ['- none']),
      ].join('\n'),
    );
  }
  if (plan.measure) return measured(info, plan.measure, filter, words, call);
  if (plan.mode === 'count') {
    const result = await call('count_records', { type: info.type, filters: filter });
    if (result.error) return cannot(result);
    const { total, list_url } = result.data as { total: number; list_url: string };
    if (!total) return answered(`${amount(words, 0, describe(info, words))}.`);
    const examples = await call('search_records', { type: info.type, filters: filter, limit: 5, fields: [] });
    const shown = ((examples.data as any)?.records ?? []) as Array<{ label: string; url: string }>;
    return answered(
      [
        `${amount(words, total, describe(info, words, total))}.`,
        shown.length
          ? `${total > shown.length ? 'For example' : total === 1 ? 'It is' : 'They are'}: ${shown.map(link).join(', ')}.`
          : '',
        `[Open the list](${list_url})`,
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
  }
  const rank = plan.rank;
  const result = await call('search_records', {
    type: info.type,
    filters: filter,
    limit: rank?.limit ?? 10,
    fields: rank ? [...DETAIL_FIELDS, rank.field] : DETAIL_FIELDS,
    ...(rank ? { sort: rank.field, order: rank.order } : {}),
  });
  if (result.error) return cannot(result);
  const data = result.data as { total: number; list_url: string; records: Array<Record<string, any>> };
  if (!data.total) return answered(`${amount(words, 0, describe(info, words))}.`);
  const lines = data.records.map(
    (r) =>
      `- ${link(r as any)}${details(r)}${rank && r[rank.field] != null ? `: ${money(Number(r[rank.field]))}` : ''}`,
  );
  if (rank)
    return answered(
      [
        `The ${fmt(data.records.length)} ${describe(info, words, data.records.length)} ${rank.words} (of **${fmt(data.total)}**):`,
        '',
        ...lines,
        '',
        `[Open the list](${data.list_url})`,
      ].join('\n'),
    );
  return answered(
    [
      `${words.adjectives.includes('your') ? 'You have ' : ''}**${fmt(data.total)}** ${describe(info, words, data.total)}${data.total > data.records.length ? `; the first ${data.records.length}` : ''}:`,
      '',
      ...lines,
      '',
      data.total > data.records.length
        ? `[See all ${fmt(data.total)}](${data.list_url})`
        : `[Open the list](${data.list_url})`,
    ].join('\n'),
  );
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** "The total estimated value of the 26 union sites in Los Angeles County is $812,400,000." */
async function measured(
  info: TypeInfo,
  measure: Measure,
  filter: Record<string, unknown>,
  words: Description,
  call: Call,
): Promise<Composed> {
  const key = measure.fn === 'sum' ? 'sum' : 'average';
  const result = await call('count_records', { type: info.type, filters: filter, [key]: measure.field });
  if (result.error) return cannot(result);
  const data = result.data as { total: number; with_value: number; list_url: string } & Record<string, number | null>;
  const what = describe(info, words, data.total);
  const field = info.fields.get(measure.field)?.name ?? measure.field;
  const value = data[key];
  const shown = (n: number) => (/hours/.test(field) ? `${fmt(Math.round(n))} hours` : money(n));
  if (!data.total) return answered(`${amount(words, 0, describe(info, words))}, so there is no ${measure.words}.`);
  if (value === null)
    return answered(`None of the **${fmt(data.total)}** ${what} has a ${field}.\n\n[Open the list](${data.list_url})`);
  const missing = data.total - data.with_value;
  return answered(
    [
      `The ${measure.words} of the **${fmt(data.total)}** ${what} is **${shown(value)}**${
        missing
          ? measure.fn === 'avg'
            ? ` (of the ${fmt(data.with_value)} with ${/^[aeiou]/.test(field) ? 'an' : 'a'} ${field}; ${fmt(missing)} have none)`
            : ` (${fmt(missing)} of them have no ${field})`
          : ''
      }.`,
      `[Open the list](${data.list_url})`,
    ].join('\n\n'),
  );
}

/** Dates and times as days in plain words ("Dec 26, 2026"); anything else as it is. */
const dayOrTime = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(value) ? plainDate(value) : value;

/** Said when a name was taken to mean the one record whose name starts with it. */
const guessed = (scope: ToolScope, found: Found[]) =>
  found.length === 1 && found[0].guessedFrom
    ? `(I took "${plain(found[0].guessedFrom)}" to mean ${link(scope.cite(found[0].info, found[0].row))}, ${found[0].closest ? 'the record with the closest name' : 'the only record whose name starts with it'}.)\n\n`
    : '';

async function fieldAnswer(scope: ToolScope, plan: Extract<Plan, { kind: 'field' }>, call: Call): Promise<Composed> {
  const lines: string[] = [];
  for (const { info, row } of plan.records) {
    const record = scope.cite(info, row);
    if (plan.field === 'address') {
      const parts = ['street', 'city', 'county', 'state', 'postal_code'].map((k) => row[k]).filter(Boolean);
      lines.push(
        parts.length
          ? `${link(record)} is at ${plain(parts.join(', '))}.`
          : `No address is recorded for ${link(record)}.`,
      );
      continue;
    }
    if (plan.field === 'contractors') {
      const ids = [...new Set([row.general_contractor_id, ...(row.contractor_ids ?? [])].filter(Boolean))];
      const found = ids.length
        ? await call('search_records', { type: 'contractor', filters: { id: ids }, limit: 50 })
        : null;
      const named = ((found?.data as any)?.records ?? []) as Array<{
        id: number;
        label: string;
        url: string;
        type?: string;
      }>;
      lines.push(
        named.length
          ? `Contractors on ${link(record)}: ${named.map((c) => `${link(c)}${c.id === row.general_contractor_id ? ' (general contractor)' : ''}`).join(', ')}.`
          : `No contractor that you may read is recorded on ${link(record)}.`,
      );
      continue;
    }
    const field = plan.field;
    const value = row[field.slug];
    if (field.target && value !== null && value !== undefined && !(Array.isArray(value) && !value.length)) {
      const targetType = scope.types.find((t) => t.resource === field.target);
      const ids = Array.isArray(value) ? value : [value];
      const found = targetType
        ? await call('search_records', { type: targetType.type, filters: { id: ids }, limit: 50 })
        : null;
      const named = ((found?.data as any)?.records ?? []) as Array<{ label: string; url: string }>;
      if (named.length) {
        lines.push(
          `The ${field.name} of ${link(record)} ${named.length > 1 ? 'are' : 'is'} ${named.map(link).join(', ')}.`,
        );
        continue;
      }
      const [shown] = await describeRows(scope, info, [row], [field.slug]);
      if (shown[field.slug] !== undefined) {
        lines.push(`The ${field.name} of ${link(record)} is ${plain(String(shown[field.slug]))}.`);
        continue;
      }
      lines.push(`No ${field.name} that you may read is recorded for ${link(record)}.`);
      continue;
    }
    const [shown] = await describeRows(scope, info, [row], [field.slug]);
    const text = shown[field.slug];
    if (text === undefined) lines.push(`No ${field.name} is recorded for ${link(record)}.`);
    else {
      const display =
        field.slug === 'estimated_value'
          ? money(Number(text))
          : typeof text === 'number'
            ? fmt(text)
            : plain(String(Array.isArray(text) ? text.join(', ') : dayOrTime(text)));
      lines.push(`The ${field.name} of ${link(record)} is ${display}.`);
    }
  }
  return answered(
    guessed(scope, plan.records) +
      (lines.length > 1 ? [`${lines.length} records match:`, '', ...lines.map((l) => `- ${l}`)].join('\n') : lines[0]),
  );
}

async function describeAnswer(scope: ToolScope, found: Found[], call: Call): Promise<Composed> {
  const { info, row } = found[0];
  const result = await call('get_record', { type: info.type, id: row.id });
  if (result.error) return cannot(result);
  const data = result.data as {
    record: Record<string, unknown>;
    related: Array<{ type: string; via: string; total: number; records: Array<{ label: string; url: string }> }>;
  };
  const skip = new Set([
    'id',
    'label',
    'url',
    'name',
    'title',
    'first_name',
    'last_name',
    'latitude',
    'longitude',
    'created_at',
    'updated_at',
    'notes',
    'description',
  ]);
  const facts = Object.entries(data.record)
    .filter(([key]) => !skip.has(key))
    .slice(0, 14)
    .map(([key, value]) => {
      const name = info.fields.get(key)?.name ?? key;
      const text =
        key === 'estimated_value'
          ? money(Number(value))
          : typeof value === 'number'
            ? fmt(value)
            : Array.isArray(value)
              ? value.join(', ')
              : String(dayOrTime(value));
      return `- ${name.charAt(0).toUpperCase()}${name.slice(1)}: ${key === 'estimated_value' ? text : plain(text)}`;
    });
  const related = data.related.map((r) => {
    const other = scope.typeOf(r.type);
    const noun = r.total === 1 ? other?.singular : other?.plural;
    return `- ${fmt(r.total)} ${noun ?? r.type}${r.via === 'notes on it' || r.via === 'tasks on it' ? '' : ` (${r.via})`}: ${r.records.slice(0, 3).map(link).join(', ')}${r.total > 3 ? ', …' : ''}`;
  });
  const title = link({ label: String(data.record.label), url: String(data.record.url) });
  return answered(
    guessed(scope, found) +
      [
        `**${title}** (${info.singular})`,
        '',
        ...facts,
        ...(related.length ? ['', 'Linked to it:', '', ...related] : []),
      ].join('\n'),
  );
}

async function marketShareAnswer(plan: Extract<Plan, { kind: 'market_share' }>, call: Call): Promise<Composed> {
  const args: Record<string, unknown> = {};
  if (plan.region) args.region = plan.region.id;
  if (plan.trade) args.trade = plan.trade.id;
  if (plan.period?.from) args.from = plan.period.from;
  if (plan.period?.to) args.to = plan.period.to;
  const result = await call('market_share', args);
  if (result.error) return cannot(result);
  const data = result.data as { totals: any; report_url: string };
  const t = data.totals;
  const scopeWords = [
    plan.trade ? `for ${plan.trade.name}` : '',
    plan.region ? `in ${plan.region.name}` : '',
    plan.period ? `for sites added ${plan.period.label}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const where = scopeWords ? ` ${scopeWords}` : '';
  if (t.share.sites === null) {
    return answered(
      `There are no sites with known union or non-union work${where}, so there is no market share to give (${fmt(t.total.sites)} site${t.total.sites === 1 ? '' : 's'} in all). [Open the report](${data.report_url})`,
    );
  }
  const pct = (v: number | null) => (v === null ? 'no share' : `${v}%`);
  return answered(
    [
      `Union market share${where}: **${pct(t.share.sites)}** of sites (${fmt(t.union.sites)} union, ${fmt(t.non_union.sites)} non-union; ${fmt(t.unknown.sites)} unknown, left out).`,
      `By estimated value: ${pct(t.share.value)} (${money(t.union.value)} of ${money(t.union.value + t.non_union.value)}). By estimated hours: ${pct(t.share.hours)}.`,
      `[Open the report](${data.report_url})`,
    ].join('\n\n'),
  );
}

async function proposalAnswer(
  scope: ToolScope,
  plan: Extract<Plan, { kind: 'propose' }>,
  call: Call,
): Promise<Composed> {
  const input = { ...plan.input };
  // "call the GC of Cedar Tower": the task is on the site and names its general contractor, when the person may read it.
  if (plan.mention && input.record) {
    const info = scope.typeOf(input.record.type);
    const row = info ? await scope.app.records.show(scope.user, info.def, input.record.id).catch(() => null) : null;
    if (info && row && info.fields.has(plan.mention)) {
      const [shown] = await describeRows(scope, info, [row], [plan.mention]);
      if (shown[plan.mention]) input.title = `${input.title} (${shown[plan.mention]})`;
    }
  }
  const result = await call('propose_change', input as Record<string, unknown>);
  if (result.error || !result.proposal)
    return refused(`I can't propose that: ${result.error ?? 'it is not a change I can make'}`);
  const p = result.proposal;
  const about = p.record ? ` on ${link({ label: p.record.label!, url: p.record.url! })}` : '';
  const what = { create_task: 'a new task', log_note: 'a note', update_field: 'a change', assign: 'an assignment' }[
    p.kind
  ];
  return answered(`I've prepared ${what}${about}: ${plain(p.summary)} Nothing is saved until you approve it.`, p);
}
