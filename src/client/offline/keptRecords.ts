/**
 * What the device can show with no connection besides the kept sites themselves: the names of the records those
 * sites link to (their contractors, trades, contacts, organizer...), which every site carries (`_labels`, server
 * records/representation.ts). The visit form opened offline names the site's contractors with them instead of
 * "Contractor #62", and its pickers offer them instead of a network error.
 */
import { LINK_NAMES, type LinkNames } from '../../common/link-names';
import { relationResources } from '../resources/names';

export type KeptRecord = Record<string, unknown> & { id: number | string };

/** The records of `resource` the kept sites hold or name, by id. */
export function keptRecordsOf(sites: readonly Record<string, unknown>[], resource: string): Map<string, KeptRecord> {
  const found = new Map<string, KeptRecord>();
  if (resource === 'sites') {
    for (const site of sites) found.set(String(site.id), site as KeptRecord);
    return found;
  }
  const fields = relationResources('site');
  for (const site of sites) {
    const labels = (site[LINK_NAMES] ?? {}) as LinkNames;
    for (const [field, byId] of Object.entries(labels)) {
      if (fields.get(field) !== resource) continue;
      for (const [id, name] of Object.entries(byId)) found.set(id, { id: Number(id), name });
    }
  }
  return found;
}

/** A list read with no connection, from what the device keeps: `q` matches the name; a page of it, by name. */
export function keptPage(
  records: Map<string, KeptRecord>,
  params: { filter?: Record<string, unknown>; pagination?: { page: number; perPage: number } },
): { data: KeptRecord[]; total: number } {
  const filter = params.filter ?? {};
  const q = typeof filter.q === 'string' ? filter.q.trim().toLowerCase() : '';
  const others = Object.entries(filter).filter(([key]) => key !== 'q');
  const matches = [...records.values()]
    .filter(
      (record) =>
        !q ||
        String(record.name ?? '')
          .toLowerCase()
          .includes(q),
    )
    // A filter on anything else can only be checked on what the record holds: a kept name holds none of it.
    .filter((record) => others.every(([key, value]) => key in record && sameValue(record[key], value)))
    .sort((a, b) => String(a.name ?? '').localeCompare(String(b.name ?? '')));
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const data = perPage > 0 ? matches.slice((page - 1) * perPage, page * perPage) : matches;
  return { data, total: matches.length };
}

const sameValue = (held: unknown, wanted: unknown): boolean =>
  Array.isArray(wanted) ? wanted.some((one) => sameValue(held, one)) : String(held) === String(wanted);
