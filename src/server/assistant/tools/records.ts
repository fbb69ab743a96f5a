import { type FilterGroup, fromListFilters, itemsOf } from '../../filters/filter-tree.js';
import { HttpError } from '../../http/errors.js';
import { parseListQuery } from '../../records/list-query.js';
import type { ResourceDefinition } from '../../records/resource.js';
import { type FieldInfo, recordLabel, type TypeInfo } from '../catalogue.js';
import type { ToolScope } from './scope.js';

/** The list suffixes of the API (docs/api.md "Lists"): `bid_date_gte`, `site_status_id_null`, ... */
const SUFFIXES = ['_gte', '_lte', '_gt', '_lt', '_neq', '_like', '_null'];

export function splitFilterKey(info: TypeInfo, key: string): { field: FieldInfo | undefined; suffix: string } {
  if (info.fields.has(key)) return { field: info.fields.get(key), suffix: '' };
  const suffix = SUFFIXES.find((s) => key.endsWith(s));
  return suffix ? { field: info.fields.get(key.slice(0, -suffix.length)), suffix } : { field: undefined, suffix: '' };
}

const normal = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** Records of a resource the person may read whose label is `text` (exactly, ignoring case), else those matching it. */
export async function findByName(
  scope: ToolScope,
  def: ResourceDefinition,
  text: string,
  limit = 10,
): Promise<Record<string, any>[]> {
  const wanted = normal(text);
  if (!wanted) return [];
  const { data } = await scope.app.records.list(scope.user, def, { search: text.slice(0, 200), per_page: 50 });
  const exact = data.filter((row) => normal(recordLabel(row)) === wanted);
  return (exact.length ? exact : data).slice(0, limit);
}

/** The readable records of a resource by id, as {id: label}; an id the person may not read is left out. */
export async function labelsOf(scope: ToolScope, resource: string, ids: number[]): Promise<Map<number, string>> {
  const def = scope.app.resources.get(resource);
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id) && id > 0))];
  if (!def || !unique.length) return new Map();
  try {
    const { data } = await scope.app.records.list(scope.user, def, {
      filter: JSON.stringify({ id: unique }),
      per_page: Math.min(unique.length, 1000),
    });
    return new Map(data.map((row) => [row.id, recordLabel(row)]));
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) return new Map();
    throw error;
  }
}

/**
 * Filters as the model or the built-in assistant gives them (`{"site_status_id": "Bidding", "type": "Union"}`) made
 * into list filters: choice labels to values, names of related records to their ids (looked up as the person),
 * unknown fields refused by name.
 */
export async function resolveFilters(
  scope: ToolScope,
  info: TypeInfo,
  filters: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  const resolved: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(filters ?? {})) {
    if (key === 'id') {
      resolved.id = raw;
      continue;
    }
    const { field, suffix } = splitFilterKey(info, key);
    if (!field?.filterable) {
      const known = [...info.fields.values()].filter((f) => f.filterable).map((f) => f.slug);
      throw new HttpError(422, `${info.plural} cannot be filtered by "${key}". Filters: ${known.join(', ')}.`);
    }
    if (suffix) {
      resolved[key] = raw;
      continue;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    const out: unknown[] = [];
    for (const value of values) {
      if (field.choices && typeof value === 'string') {
        const choice = field.choices.find(
          (c) => normal(c.value) === normal(value) || normal(c.label) === normal(value),
        );
        out.push(choice ? choice.value : value);
      } else if (field.target && typeof value === 'string' && !/^\d+$/.test(value.trim())) {
        const def = scope.app.resources.get(field.target);
        const found = def ? await findByName(scope, def, value, 20) : [];
        if (!found.length)
          throw new HttpError(422, `No ${field.name} named "${value}" was found among those you may read.`);
        out.push(...found.map((row) => row.id));
      } else out.push(value);
    }
    if (info.def.categoryColumn === field.slug) {
      // A category the person may not read is refused by name, rather than counted as none.
      const allowed = scope.app.records.access.categories(scope.user, info.def);
      const refused = allowed === 'all' ? [] : out.filter((value) => !allowed.includes(String(value)));
      if (refused.length) throw new HttpError(403, `You may not read ${refused.join(', ')} ${info.plural}.`);
    }
    resolved[key] = Array.isArray(raw) || out.length > 1 ? out : out[0];
  }
  return resolved;
}

/**
 * The list query of resolved filters. Whether a list of related records is empty or not ("with no contact",
 * `contact_ids_null`) is a view filter condition (`has_none`, `has_any`), sent as `filters=` and compiled by the
 * one filter compiler like the rest: the list query's `_null` asks whether the column is NULL, not whether the
 * list is empty.
 */
export function listQueryOf(
  info: TypeInfo,
  filter: Record<string, unknown>,
): { filter: Record<string, unknown>; where?: { all: Array<{ field: string; op: string }> } } {
  const flat: Record<string, unknown> = {};
  const conditions: Array<{ field: string; op: string }> = [];
  for (const [key, value] of Object.entries(filter)) {
    const { field, suffix } = splitFilterKey(info, key);
    if (suffix === '_null' && field?.kind.endsWith('[]'))
      conditions.push({
        field: field.slug,
        op: value === true || value === 'true' || value === 1 ? 'has_none' : 'has_any',
      });
    else flat[key] = value;
  }
  return conditions.length ? { filter: flat, where: { all: conditions } } : { filter: flat };
}

/**
 * The same filters as the view filter structure (filters/filter-tree.ts), as a saved view keeps them: each list
 * filter a condition (`bid_date_gte` is `{field: bid_date, op: gte}`), read by the list query's own parser.
 */
export function viewFiltersOf(info: TypeInfo, filter: Record<string, unknown>): FilterGroup {
  const { filter: flat, where } = listQueryOf(info, filter);
  const parsed = parseListQuery({ filter: JSON.stringify(flat) }, info.def);
  return { all: [...itemsOf(fromListFilters(parsed.filters)), ...(where?.all ?? [])] };
}

/** The list API's query for a list query (listQueryOf): `filter` and, when there are conditions, `filters`. */
export const apiQuery = ({ filter, where }: ReturnType<typeof listQueryOf>) => ({
  filter: JSON.stringify(filter),
  ...(where ? { filters: JSON.stringify(where) } : {}),
});

/** A value as an answer shows it: relation ids as names, choices as labels, dates as days. */
function shown(field: FieldInfo, value: unknown, names: Map<string, Map<number, string>>): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (field.target) {
    const labels = names.get(field.target);
    const ids = Array.isArray(value) ? value : [value];
    const named = ids.map((id) => labels?.get(Number(id))).filter(Boolean);
    if (!named.length) return undefined;
    return Array.isArray(value) ? named : named[0];
  }
  if (field.worded) return field.words(value);
  if (field.choices) {
    const label = (v: unknown) => field.words(v) || v;
    return Array.isArray(value) ? value.map(label) : label(value);
  }
  if (value instanceof Date) return field.kind === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  if (typeof value === 'string' && value.length > 1_000) return `${value.slice(0, 1_000)}...`;
  return value;
}

/**
 * Rows as the assistant reports them: the fields of the record type (only `only` when given) with related records
 * named (each looked up as the person: a record they may not read is left out, never shown by id), plus `label`
 * and `url`.
 */
export async function describeRows(
  scope: ToolScope,
  info: TypeInfo,
  rows: Record<string, any>[],
  only?: readonly string[],
) {
  const fields = [...info.fields.values()].filter((f) => !only || only.includes(f.slug));
  const names = new Map<string, Map<number, string>>();
  for (const field of fields) {
    if (!field.target) continue;
    const ids = rows
      .flatMap((row) => (Array.isArray(row[field.slug]) ? row[field.slug] : [row[field.slug]]))
      .filter((v) => v != null)
      .map(Number);
    if (!ids.length) continue;
    const known = names.get(field.target) ?? new Map<number, string>();
    for (const [id, label] of await labelsOf(scope, field.target, ids)) known.set(id, label);
    names.set(field.target, known);
  }
  return rows.map((row) => {
    const cited = scope.cite(info, row);
    const out: Record<string, unknown> = { id: row.id, label: cited.label, url: cited.url };
    for (const field of fields) {
      const value = shown(field, row[field.slug], names);
      if (value !== undefined && !(Array.isArray(value) && !value.length)) out[field.slug] = value;
    }
    return out;
  });
}
