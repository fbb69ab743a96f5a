/**
 * The questions of tests/assistant/questions.json and how an answer to one is judged: right, an honest refusal, or
 * wrong, against what the API itself says as the person asking. Used by the accuracy suite
 * (tests/api/assistant-questions.test.ts) and by `npm run bench -- assistant`. Dates and the demo records the
 * questions name are worked out here on their own, through the API, never with the assistant's code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface AssistantQuestion {
  q: string;
  as?: string;
  scope?: 'in' | 'out';
  /** Asked after the question before it, in the same conversation ("them", "how many of those"). */
  follows?: boolean;
  expect?: Record<string, any>;
}

/** GET through the API as one person: the parsed body; throws on an error status. */
export type Get = (url: string) => Promise<any>;

export function loadQuestions(root: string): AssistantQuestion[] {
  return (
    JSON.parse(readFileSync(path.join(root, 'tests/assistant/questions.json'), 'utf8')) as {
      questions: AssistantQuestion[];
    }
  ).questions;
}

/** A list through the API: `filter` as the list query's, its `filters` key (if any) as the view filters. */
export const listOf = (get: Get, resource: string, all: Record<string, unknown> = {}, extra = '') => {
  const { filters, ...filter } = all;
  const where = filters ? `&filters=${encodeURIComponent(JSON.stringify(filters))}` : '';
  return get(`/api/${resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(filter))}${where}${extra}`);
};

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const next = (day: string) => iso(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));

/** $thisWeek.from, $nextMonth.after (the day after its last day), $last30.from, $now... */
export function dates(now: Date): Record<string, string> {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = utc(y, m, now.getUTCDate());
  const day = 86_400_000;
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * day);
  const ranges: Record<string, [Date, Date]> = {
    today: [today, today],
    thisWeek: [monday, new Date(monday.getTime() + 6 * day)],
    nextWeek: [new Date(monday.getTime() + 7 * day), new Date(monday.getTime() + 13 * day)],
    lastWeek: [new Date(monday.getTime() - 7 * day), new Date(monday.getTime() - day)],
    thisMonth: [utc(y, m, 1), utc(y, m + 1, 0)],
    nextMonth: [utc(y, m + 1, 1), utc(y, m + 2, 0)],
    lastMonth: [utc(y, m - 1, 1), utc(y, m, 0)],
    thisYear: [utc(y, 0, 1), utc(y, 11, 31)],
    lastYear: [utc(y - 1, 0, 1), utc(y - 1, 11, 31)],
    nextYear: [utc(y + 1, 0, 1), utc(y + 1, 11, 31)],
    last30: [new Date(today.getTime() - 29 * day), today],
    last7: [new Date(today.getTime() - 6 * day), today],
    next30: [today, new Date(today.getTime() + 29 * day)],
    sinceMarch: [utc(m >= 2 ? y : y - 1, 2, 1), today],
  };
  const out: Record<string, string> = { now: now.toISOString() };
  for (const [name, [from, to]] of Object.entries(ranges))
    Object.assign(out, { [`${name}.from`]: iso(from), [`${name}.to`]: iso(to), [`${name}.after`]: next(iso(to)) });
  return out;
}

/**
 * A second site with the name of one already there, in another city: "summarize {twin}" must offer both, told
 * apart. (The demo's names are all different.)
 */
export async function addTwin(get: Get, post: (url: string, body: unknown) => Promise<any>): Promise<void> {
  // The first sites made (the demo's): a benchmark may add many more after them.
  const sites: any[] = (await get('/api/sites?per_page=200&sort=id&order=asc')).data;
  const original = sites.find((s) => s.city && /^[A-Za-z][A-Za-z ]+$/.test(s.name));
  const city = sites.find((s) => s.city && s.city !== original.city).city;
  await post('/api/sites', { name: original.name, type: original.type, city });
}

/** The records the questions name, picked from the demo data through the API: words for the question, values for the filters. */
export async function pick(get: Get) {
  const sites: any[] = (await get('/api/sites?per_page=-1&sort=name&order=asc')).data;
  const byName = new Map<string, number>();
  for (const s of sites) byName.set(s.name.toLowerCase(), (byName.get(s.name.toLowerCase()) ?? 0) + 1);
  const unique = sites.filter(
    (s) =>
      byName.get(s.name.toLowerCase()) === 1 &&
      s.general_contractor_id &&
      s.bid_date &&
      s.site_status_id &&
      /^[A-Za-z][A-Za-z ]+$/.test(s.name),
  );
  const [site, site2] = unique;
  const twin = sites.find((s) => byName.get(s.name.toLowerCase())! > 1);
  const cities = new Map<string, number>();
  for (const s of sites) if (s.city) cities.set(s.city, (cities.get(s.city) ?? 0) + 1);
  const regionNames: any[] = (await get('/api/regions?per_page=-1')).data;
  // The city with most sites whose name is no county's (a name that is both is asked back as two readings).
  const city = [...cities.entries()]
    .filter(
      ([name]) =>
        !regionNames.some((r: any) => String(r.name).toLowerCase().startsWith(`${name.toLowerCase()} county`)),
    )
    .sort((a, b) => b[1] - a[1])[0][0];
  const regions: any[] = (await get('/api/regions?per_page=-1&sort=name&order=asc')).data.filter(
    (r: any) => r.geometry_type === 'county',
  );
  // The county that shares its name with a city: the questions about "LA County" and the two readings of "Los Angeles".
  const la = regions.find((r) => /^los angeles county\b/i.test(r.name));
  const counties: any[] = [];
  for (const region of regions)
    if ((await listOf(get, 'sites', { type: 'union', region_ids: [region.id] })).meta.total > 0) counties.push(region);
  const trades: any[] = (await get('/api/trades?per_page=-1&sort=name&order=asc')).data;
  let trade: any;
  for (const candidate of trades)
    if (
      (await listOf(get, 'sites', { trade_ids: [candidate.id] })).meta.total > 0 &&
      /^[A-Za-z]+$/.test(candidate.name)
    )
      trade ??= candidate;
  const statuses: any[] = (await get('/api/site-statuses?per_page=-1')).data;
  let status: any;
  for (const candidate of statuses)
    if (!status && (await listOf(get, 'sites', { site_status_id: candidate.id })).meta.total > 0) status = candidate;
  const contractors: any[] = (await get('/api/contractors?per_page=-1&sort=name&order=asc')).data;
  const contractor = contractors.find(
    (c) => /^[A-Za-z][A-Za-z ]+$/.test(c.name) && contractors.filter((o) => o.name === c.name).length === 1,
  );
  const people: any[] = (await get('/api/users?per_page=-1')).data;
  const organizer = people.find((p) => p.email === 'organizer@example.com');
  if (!site || !site2 || !la || counties.length < 2 || !trade || !status || !contractor || !organizer)
    throw new Error(
      'The demo data lacks what the questions need (two uniquely named sites with a general contractor, two counties with union sites, a trade, a status, a contractor, the organizer).',
    );
  const county = counties.find((c) => / county/i.test(c.name) && !/^los angeles/i.test(c.name)) ?? counties[0];
  const county2 = counties.find((c) => c !== county)!;
  return {
    words: {
      site: site.name,
      siteId: String(site.id),
      site2: site2.name,
      // A typo: one letter of the name's longest word left out ("Riverfrnt Hotel Tower").
      siteTypo: typo(site.name),
      twin: twin?.name ?? site.name,
      city,
      county: county.name,
      countyShort: String(county.name).replace(/ county(, [A-Z]{2})?$/i, ''),
      county2: county2.name,
      trade: trade.name,
      status: status.name,
      contractor: contractor.name,
      organizer: `${organizer.first_name} ${organizer.last_name}`,
      organizerFirst: organizer.first_name,
    },
    values: {
      site: site.id,
      site2: site2.id,
      city,
      county: county.id,
      la: la.id,
      county2: county2.id,
      trade: trade.id,
      status: status.id,
      contractor: contractor.id,
      organizer: organizer.id,
    },
  };
}

/** A name with one letter of its longest word left out, as a hurried person types it. */
function typo(name: string): string {
  const words = name.split(' ');
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  const at = Math.floor(longest.length / 2);
  return words.map((w) => (w === longest ? w.slice(0, at) + w.slice(at + 1) : w)).join(' ');
}

export function fill(value: unknown, values: Record<string, unknown>): any {
  if (typeof value === 'string' && value.startsWith('$')) {
    if (!(value.slice(1) in values)) throw new Error(`No value for ${value}`);
    return values[value.slice(1)];
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, values));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  return value;
}

/** The question's words with {site}, {county}, ... replaced by the picked records' names. */
export const wordsOf = (question: AssistantQuestion, words: Record<string, string>) =>
  question.q.replace(/\{(\w+)\}/g, (_m, key) => {
    if (!(key in words)) throw new Error(`No word for {${key}}`);
    return words[key];
  });

const fmt = (n: number) => n.toLocaleString('en-US');
const has = (text: string, figure: string) =>
  new RegExp(`(^|[^\\d.,])${figure.replace(/[.$]/g, '\\$&')}([^\\d]|$)`).test(text);
const REFUSAL = /\b(can't|cannot|couldn't|not sure|don't|do not|unable|won't|no (record|tool|data))\b/i;

export type Verdict = 'right' | 'refused' | 'wrong';

/** A filter as compared: each value a sorted list of strings, so `"union"` and `["union"]` are the same filter. */
const canonical = (filter: Record<string, unknown> = {}) =>
  JSON.stringify(
    Object.keys(filter)
      .sort()
      .map((key) => {
        const value = filter[key];
        if (key === 'filters') return [key, JSON.stringify(value)];
        // "now" is the moment each side read it: the same minute is the same filter.
        if (typeof value === 'string' && /T\d\d:\d\d:/.test(value)) return [key, [value.slice(0, 16)]];
        return [key, (Array.isArray(value) ? value : [value]).map(String).sort()];
      }),
  );

/** The filter of the list the answer's count or list step links for `resource` (its `list_url`, view filters under `filters`). */
function stepFilter(steps: any[], resource: string): Record<string, unknown> | undefined {
  for (const step of steps) {
    const call = step.tool_calls?.[0];
    if (!call || !['count_records', 'search_records'].includes(call.name)) continue;
    let url: string | undefined;
    try {
      url = JSON.parse(step.content).list_url;
    } catch {
      continue;
    }
    if (!url || url.split('?')[0] !== `/${resource}`) continue;
    const filter = new URL(url, 'http://x').searchParams.get('filter');
    return filter ? JSON.parse(filter) : {};
  }
  return undefined;
}

/**
 * Whether an answer is right, an honest refusal, or wrong, against what the API says as the same person. With the
 * answer's tool steps, a count or a list must also have used the expected filters.
 */
export async function judge(
  get: Get,
  question: AssistantQuestion,
  answer: any,
  values: Record<string, unknown>,
  steps?: any[],
): Promise<{ verdict: Verdict; why: string }> {
  const text: string = answer.content ?? '';
  const refused =
    answer.outcome === 'refused' || (answer.model !== 'built-in' && REFUSAL.test(text) && !/\*\*\d/.test(text));
  if (question.scope === 'out' || !question.expect) {
    if (refused) return { verdict: 'refused', why: 'refused' };
    return { verdict: 'wrong', why: `answered a question outside its scope: ${text.slice(0, 120)}` };
  }
  const [kind, raw] = Object.entries(question.expect)[0];
  const spec = fill(raw, values);
  const ok = (condition: boolean, why: string): { verdict: Verdict; why: string } => ({
    verdict: condition ? 'right' : 'wrong',
    why,
  });
  if (kind === 'readings') {
    // Two readings offered as questions to ask (buttons), neither answered.
    const offered = [...text.matchAll(/\]\((\/assistant\?ask=[^)]+)\)/g)].length;
    return ok(offered >= 2, `expected ${spec.count ?? 2} readings offered: ${text.slice(0, 160)}`);
  }
  if (kind === 'unknown') {
    // The words it did not know, named, with the closest known ones.
    return ok(
      refused && text.includes(spec.word) && (!spec.closest || text.toLowerCase().includes(spec.closest)),
      `expected "${spec.word}" named${spec.closest ? ` with "${spec.closest}"` : ''}: ${text.slice(0, 200)}`,
    );
  }
  if (kind === 'choices') {
    // Several records of that name, told apart and offered.
    const links = [...text.matchAll(/\]\(\/(\w[\w-]*)\/(\d+)\/show\)/g)].filter((m) => m[1] === spec.resource);
    return ok(links.length >= 2, `expected a choice among ${spec.resource}: ${text.slice(0, 200)}`);
  }
  if (refused) return { verdict: 'refused', why: text.slice(0, 160) };
  switch (kind) {
    case 'count': {
      const total = (await listOf(get, spec.resource, spec.filter)).meta.total;
      const used = steps ? stepFilter(steps, spec.resource) : undefined;
      if (steps && canonical(used) !== canonical(spec.filter))
        return ok(false, `expected the filter ${JSON.stringify(spec.filter)}, used ${JSON.stringify(used)}`);
      return ok(
        total === 0 ? /\b(no|none|zero|0)\b/i.test(text) && !/\*\*[1-9]/.test(text) : has(text, fmt(total)),
        `expected ${total}: ${text.slice(0, 120)}`,
      );
    }
    case 'field': {
      const record = (await get(`/api/${spec.resource}/${spec.id}`)).data;
      const value = record[spec.field];
      if (spec.target) {
        const ids = Array.isArray(value) ? value : [value];
        const names = [];
        for (const id of ids.filter(Boolean)) {
          const target = (await get(`/api/${spec.target}/${id}`)).data;
          names.push(target.name ?? `${target.first_name} ${target.last_name}`.trim());
        }
        return ok(
          names.length > 0 && names.every((n) => text.includes(n)),
          `expected ${names.join(', ')}: ${text.slice(0, 160)}`,
        );
      }
      // Dates in plain words: "Dec 26, 2026".
      const shown =
        typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)
          ? new Date(`${value.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-US', {
              month: 'short',
              day: 'numeric',
              year: 'numeric',
              timeZone: 'UTC',
            })
          : String(value);
      return ok(text.includes(shown), `expected ${shown}: ${text.slice(0, 160)}`);
    }
    case 'describe':
      return ok(
        text.includes(`(/${spec.resource}/${spec.id}/show)`),
        `expected a link to ${spec.resource} ${spec.id}: ${text.slice(0, 120)}`,
      );
    case 'market_share': {
      const query = new URLSearchParams({
        group_by: 'none',
        ...Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, String(v)])),
      });
      const share = (await get(`/api/reports/market-share?${query}`)).totals.share.sites;
      return ok(
        share === null ? /no market share/i.test(text) : has(text, `${share}%`),
        `expected ${share}%: ${text.slice(0, 160)}`,
      );
    }
    case 'groups': {
      const schema = (await get('/api/schemas?per_page=-1')).data.find((s: any) => s.resource === spec.resource);
      const field = schema.fields.find((f: any) => f.slug === spec.field);
      // As a person who may not see everyone: their own line, and the rest as one total.
      const me = spec.hidden ? (await get('/api/auth/check')).data : null;
      const options: Array<{ label: string; value: unknown }> = me
        ? [{ label: me.name ?? `${me.first_name} ${me.last_name}`.trim(), value: me.id }]
        : spec.target
          ? (await get(`/api/${spec.target}?per_page=-1`)).data.map((r: any) => ({
              label: r.name ?? `${r.first_name} ${r.last_name}`.trim(),
              value: r.id,
            }))
          : (field.options.choices ?? []).map((c: any) => ({ label: c.label, value: c.value }));
      const lines = new Map(
        [...text.matchAll(/^- \[(.+?)\]\(.*?\): \*\*([\d,]+)\*\*/gm)].map((m) => [
          m[1].replace(/\\(.)/g, '$1'),
          Number(m[2].replace(/,/g, '')),
        ]),
      );
      const multiple = /_ids$/.test(spec.field);
      for (const option of options) {
        const filter = { ...spec.filter, [spec.field]: multiple ? [option.value] : option.value };
        const total = (await listOf(get, spec.resource, filter)).meta.total;
        if ((lines.get(option.label) ?? 0) !== total)
          return ok(false, `expected ${option.label} ${total}, got ${lines.get(option.label)}`);
      }
      // What the person may not name is one line at most, never one per hidden person or record.
      const hidden = [...text.matchAll(/you cannot see/g)].length;
      if (me && lines.size !== 1) return ok(false, `expected only ${options[0].label} named: ${[...lines.keys()]}`);
      return ok(lines.size > 0 && hidden <= 1, `groups (${hidden} hidden lines)`);
    }
    case 'measure': {
      // A total or an average of a number field, worked out here from every record the list API gives the person.
      const { filters, ...filter } = spec.filter as Record<string, unknown>;
      const where = filters ? `&filters=${encodeURIComponent(JSON.stringify(filters))}` : '';
      const rows: any[] = (
        await get(`/api/${spec.resource}?per_page=-1&filter=${encodeURIComponent(JSON.stringify(filter))}${where}`)
      ).data;
      const values = rows.map((r) => r[spec.field]).filter((v) => v !== null && v !== undefined && v !== '');
      const sum = values.reduce((total: number, v) => total + Number(v), 0);
      const value = Math.round(spec.fn === 'avg' ? sum / values.length : sum);
      const figure = spec.hours ? `${fmt(value)} hours` : `$${fmt(value)}`;
      const used = steps ? stepFilter(steps, spec.resource) : undefined;
      if (steps && canonical(used) !== canonical(spec.filter))
        return ok(false, `expected the filter ${JSON.stringify(spec.filter)}, used ${JSON.stringify(used)}`);
      return ok(has(text, figure), `expected ${figure}: ${text.slice(0, 160)}`);
    }
    case 'top': {
      // The records with the most of another type's records pointing at them (or, with `sum`, the highest total of
      // their number field): each line's figure is the API's for it, and the figures are the highest there are.
      const rows: any[] = (await get(`/api/${spec.resource}?per_page=-1`)).data;
      const figures = new Map<number, number>();
      for (const row of rows)
        if (row[spec.field] != null)
          figures.set(
            row[spec.field],
            (figures.get(row[spec.field]) ?? 0) + (spec.sum ? Number(row[spec.sum] ?? 0) : 1),
          );
      const highest = [...figures.values()]
        .map(Math.round)
        .sort((a, b) => b - a)
        .slice(0, spec.limit);
      const names = new Map<string, number>();
      for (const id of figures.keys()) {
        const target = (await get(`/api/${spec.target}/${id}`)).data;
        names.set(target.name, Math.round(figures.get(id)!));
      }
      const lines = [...text.matchAll(/^- \[(.+?)\]\(.*?\): \*\*\$?([\d,]+)\*\*/gm)].map((m) => ({
        name: m[1].replace(/\\(.)/g, '$1'),
        count: Number(m[2].replace(/,/g, '')),
      }));
      if (lines.length !== highest.length) return ok(false, `expected ${highest.length} lines: ${text.slice(0, 200)}`);
      for (const line of lines)
        if (names.get(line.name) !== line.count)
          return ok(false, `expected ${line.name} ${names.get(line.name)}, got ${line.count}`);
      return ok(
        JSON.stringify(lines.map((l) => l.count)) === JSON.stringify(highest),
        `expected the counts ${highest.join(', ')}: ${text.slice(0, 200)}`,
      );
    }
    case 'near': {
      const inCity: any[] = (
        await get(`/api/sites?per_page=1000&filter=${encodeURIComponent(JSON.stringify({ city: spec.city }))}`)
      ).data.filter((s: any) => s.latitude != null);
      const lat = inCity.reduce((s, r) => s + Number(r.latitude), 0) / inCity.length;
      const lng = inCity.reduce((s, r) => s + Number(r.longitude), 0) / inCity.length;
      const all: any[] = (await get('/api/sites?per_page=-1')).data.filter((s: any) => s.latitude != null);
      const rad = Math.PI / 180;
      const km = (s: any) =>
        2 *
        6371 *
        Math.asin(
          Math.sqrt(
            Math.sin(((s.latitude - lat) * rad) / 2) ** 2 +
              Math.cos(lat * rad) * Math.cos(s.latitude * rad) * Math.sin(((s.longitude - lng) * rad) / 2) ** 2,
          ),
        );
      const total = all.filter((s) => km(s) <= spec.radius_km).length;
      return ok(has(text, fmt(total)), `expected ${total}: ${text.slice(0, 120)}`);
    }
    case 'proposal': {
      const p = answer.proposal;
      if (!p || p.kind !== spec.kind) return ok(false, `expected a ${spec.kind} proposal: ${text.slice(0, 120)}`);
      const target =
        p.write.action === 'update' ? p.write.id : (p.write.values.taskable_id ?? p.write.values.notable_id);
      const due = spec.due_weekday === undefined || new Date(p.write.values.due_at).getUTCDay() === spec.due_weekday;
      return ok(target === spec.record && due, `proposal on ${target}, due ${p.write.values.due_at}`);
    }
    default:
      return ok(false, `unknown expectation ${kind}`);
  }
}
