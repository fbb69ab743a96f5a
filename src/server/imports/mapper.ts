import { splitList } from '../../common/field-types/cells.js';
import { moduleOfSpec } from '../../common/field-types.js';
import { applyRules, type ImportRule } from '../../common/import-rules.js';
import { type ImportRecordType, KEY_FIELDS, TARGETS_BY_KEY } from '../../common/import-targets.js';
import {
  checkLatLng,
  normalise,
  parseCoordinates,
  parseFlag,
  parseMoney,
  parseNumber,
  splitName,
} from '../../common/import-values.js';
import { displayName } from '../records/fields.js';
import type { FieldSpec } from '../records/resource.js';
import { postalCentre } from './postal-centres.js';

export interface ImporterColumn {
  header: string;
  target: string;
}

/** An importer as the job uses it (the `importers` row with its columns and rules). */
export interface ImporterConfig {
  id: number;
  name: string;
  record_type: ImportRecordType;
  key_target: string | null;
  create_related: boolean;
  all_or_nothing: boolean;
  protected_fields: string[];
  defaults: Record<string, unknown>;
  columns: ImporterColumn[];
  rules: ImportRule[];
}

export interface ContactInput {
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
}

/** One CSV record turned into what the import writes: the record's values and the related records by name. */
export interface MappedRow {
  line: number;
  index: number;
  /** Field name → value, as a person would send it to POST /api/{type}; empty cells are left out. */
  values: Record<string, unknown>;
  /** Trade names (mapped craft columns and trade-set rules). */
  trades: string[];
  status?: string;
  union?: string;
  classification?: string;
  /** The member's trade (craft) by name. */
  craft?: string;
  /** The contractor named on the row (a site's general contractor, a member's employer). */
  contractor?: Record<string, unknown>;
  contacts: ContactInput[];
  isSiteContact: boolean;
  /** Values that could not be read (a bad date, a bad amount): the row fails with these. */
  errors: string[];
  /** Every cell was empty: the row is skipped, not failed. */
  blank: boolean;
  /** The file's cells of the row (kept with a failed row, and what `contentHash` is of). */
  raw?: readonly string[];
  /** RowHashes.contentHash of the row's cells, when the import matches rows by key. */
  contentHash?: string;
}

const SOURCE_ALIASES: Record<string, string> = {
  dodge: 'dodge-data',
  'dodge data': 'dodge-data',
  'dodge data analytics': 'dodge-data',
  'dodge construction network': 'dodge-data',
  'construct connect': 'construct-connect',
  constructconnect: 'construct-connect',
  cmd: 'construct-connect',
  isqft: 'construct-connect',
  'building trades': 'building-trades',
  'building trades council': 'building-trades',
  btc: 'building-trades',
};
const CONTRACTOR_TYPE_ALIASES: Record<string, string> = {
  union: 'union',
  signatory: 'union',
  yes: 'union',
  'non union': 'non-union',
  nonunion: 'non-union',
  'open shop': 'non-union',
  merit: 'non-union',
  'merit shop': 'non-union',
  no: 'non-union',
  general: 'general',
  'general contractor': 'general',
  gc: 'general',
  none: 'none',
  unknown: 'none',
};

const ADDRESS_PARTS = new Set(['street', 'city', 'county', 'state', 'postal_code']);
const CONTRACTOR_ADDRESS_PARTS = new Set(['street', 'city', 'state', 'postal_code']);
const slug = (text: string) => normalise(text).replace(/\s+/g, '-');

/** Finds the file column of each importer column: exact header first, then the same header ignoring case and punctuation. */
export function locateColumns(columns: readonly ImporterColumn[], headers: readonly string[]) {
  const exact = new Map(headers.map((h, i) => [h, i]));
  const loose = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = normalise(h);
    if (!loose.has(key)) loose.set(key, i);
  });
  const located: Array<{ index: number; target: string; header: string }> = [];
  const missing: string[] = [];
  for (const column of columns) {
    if (!column.target || column.target === 'ignore') continue;
    const index = exact.get(column.header) ?? loose.get(normalise(column.header));
    if (index === undefined) missing.push(column.header);
    else located.push({ index, target: column.target, header: column.header });
  }
  return { located, missing };
}

/** The record field the importer's key target matches on (`site.external_id` → `external_id`). */
/**
 * What a new record gets for a field its row left empty: the importer's settings (`defaults`: a vendor's sites get
 * its source), over a new site's `pending` type and a new contractor's `none`. A setting left empty sets nothing.
 */
export function newRecordDefaults(
  importer: Pick<ImporterConfig, 'record_type' | 'defaults'> | null | undefined,
  type: string,
): Record<string, unknown> {
  const base: Record<string, unknown> =
    type === 'site' ? { type: 'pending' } : type === 'contractor' ? { type: 'none' } : {};
  for (const [field, value] of Object.entries(importer?.defaults ?? {}))
    if (value !== null && value !== undefined && value !== '') base[field] = value;
  return base;
}

export function keyFieldOf(importer: Pick<ImporterConfig, 'key_target'>): string | null {
  if (!importer.key_target) return null;
  if (importer.key_target.startsWith('custom.')) return importer.key_target.slice(7);
  return KEY_FIELDS[importer.key_target] ?? null;
}

/**
 * Builds the function that maps one record of a file with these headers. `fields` are the record type's fields
 * (custom ones included): values are converted by the field's kind (dates, numbers, yes/no, choices) so the
 * data service's validation sees what a form would send.
 */
export function createMapper(importer: ImporterConfig, headers: readonly string[], fields: Record<string, FieldSpec>) {
  const { located, missing } = locateColumns(importer.columns, headers);
  const headerIndex = new Map<string, number>();
  headers.forEach((h, i) => {
    if (!headerIndex.has(h.toLowerCase())) headerIndex.set(h.toLowerCase(), i);
  });
  const type = importer.record_type;
  // What each mapped column means is worked out once per file, not again for every row's cell.
  const columns = located.map(({ index, target, header }) => {
    const [group, part] = target.includes('.') ? (target.split('.', 2) as [string, string]) : [target, ''];
    const custom = group === 'custom';
    return {
      index,
      target,
      group,
      part,
      label: custom ? displayName(part, fields[part]) : (TARGETS_BY_KEY.get(target)?.label ?? header),
      custom,
      contact: /^contact_[123]$/.test(group) ? Number(group.slice(-1)) - 1 : -1,
      main: group === type,
    };
  });

  const map = (cells: readonly string[], line: number, index: number): MappedRow => {
    const row: MappedRow = {
      line,
      index,
      values: {},
      trades: [],
      contacts: [],
      isSiteContact: true,
      errors: [],
      blank: true,
    };
    const contacts: Array<Partial<ContactInput> & { name?: string }> = [];
    const notes: string[] = [];
    const contractorNotes: string[] = [];
    const contractor: Record<string, unknown> = {};
    const address: Record<string, string> = {};
    const contractorAddress: Record<string, string> = {};
    let name = null as { first_name: string; last_name: string } | null;
    let value: number | undefined;

    const fail = (label: string, message: string) => row.errors.push(`${label}: ${message}`);
    const put = (field: string, raw: string, label: string) => {
      const spec = fields[field];
      if (!spec) return; // a field this record type does not have (yet): ignored
      const converted = convert(raw, spec);
      if (converted.ok) row.values[field] = converted.value;
      else fail(label, converted.error);
    };

    for (const { index: i, target, group, part, label, custom, contact, main } of columns) {
      const raw = (cells[i] ?? '').trim();
      if (raw === '') continue;
      row.blank = false;
      if (custom) {
        put(part, raw, label);
        continue;
      }
      if (contact >= 0) {
        const n = contact;
        contacts[n] ??= {};
        if (part === 'name') contacts[n].name = raw;
        else if (part === 'email') contacts[n].email = raw;
        else if (part === 'phone') contacts[n].phone = raw;
        continue;
      }
      switch (target) {
        case 'site.address':
          Object.assign(address, parseAddress(raw));
          break;
        case 'contractor.address':
          if (main) Object.assign(address, parseAddress(raw));
          else Object.assign(contractorAddress, parseAddress(raw));
          break;
        case 'site.coordinates':
        case 'contractor.coordinates': {
          const parsed = parseCoordinates(raw);
          if (!parsed.ok) fail(label, parsed.error);
          else if (main) Object.assign(row.values, pickFields(parsed.value, fields));
          else Object.assign(contractor, parsed.value);
          break;
        }
        case 'site.latitude':
        case 'site.longitude':
        case 'contractor.latitude':
        case 'contractor.longitude': {
          const parsed = parseNumber(raw);
          const field = part;
          if (!parsed.ok) fail(label, parsed.error);
          else if (field === 'latitude' && Math.abs(parsed.value) > 90)
            fail(label, `${parsed.value} is outside -90 to 90.`);
          else if (field === 'longitude' && Math.abs(parsed.value) > 180)
            fail(label, `${parsed.value} is outside -180 to 180.`);
          else if (main) put(field, String(parsed.value), label);
          else contractor[field] = parsed.value;
          break;
        }
        case 'site.estimated_value': {
          const parsed = parseMoney(raw);
          if (parsed.ok) row.values.estimated_value = parsed.value;
          else fail(label, parsed.error);
          break;
        }
        case 'site.value': {
          const parsed = parseMoney(raw);
          if (parsed.ok) value = parsed.value;
          else fail(label, parsed.error);
          break;
        }
        case 'site.contact':
          contacts.push({ name: raw });
          break;
        case 'site.source': {
          const key = normalise(raw);
          put('source', SOURCE_ALIASES[key] ?? slug(raw), label);
          break;
        }
        case 'site.status':
          row.status = raw;
          break;
        case 'site.craft':
        case 'craft':
          if (type === 'member') row.craft = raw;
          else row.trades.push(...splitList(raw));
          break;
        case 'site.type':
          put('type', slug(raw), label);
          break;
        case 'contractor.type': {
          const typed = CONTRACTOR_TYPE_ALIASES[normalise(raw)] ?? slug(raw);
          if (main) put('type', typed, label);
          else contractor.type = typed;
          break;
        }
        case 'site.notes_1':
        case 'site.notes_2':
        case 'site.notes_3':
          notes.push(raw);
          break;
        case 'contractor.notes_1':
        case 'contractor.notes_2':
        case 'contractor.notes_3':
          if (main) notes.push(raw);
          else contractorNotes.push(raw);
          break;
        case 'member.name':
          name = splitName(raw);
          break;
        case 'member.first_name':
          name = { first_name: raw, last_name: name?.last_name ?? '' };
          break;
        case 'member.last_name':
          name = { first_name: name?.first_name ?? '', last_name: raw };
          break;
        case 'member.number':
          put('member_number', raw, label);
          break;
        case 'union':
          row.union = raw;
          break;
        case 'classification':
          row.classification = raw;
          break;
        case 'is_site_contact': {
          const parsed = parseFlag(raw);
          if (parsed.ok) row.isSiteContact = parsed.value;
          else fail(label, parsed.error);
          break;
        }
        case 'is_steward':
          put('is_steward', raw, label);
          break;
        default: {
          if (main) {
            const field = part;
            if (ADDRESS_PARTS.has(field)) address[field] = raw;
            else put(field, raw, label);
          } else if (group === 'contractor') {
            if (CONTRACTOR_ADDRESS_PARTS.has(part)) contractorAddress[part] = raw;
            else contractor[part] = raw;
          }
        }
      }
    }

    // Rules read the file's cells by header.
    if (importer.rules.length) {
      const effects = applyRules(importer.rules, (source) => {
        const i = headerIndex.get(source.toLowerCase());
        return i === undefined ? undefined : cells[i];
      });
      row.trades.push(...effects.trades);
    }
    row.trades = dedupe(row.trades);

    // Address parts: separately mapped columns win over the one-line address.
    for (const [field, text] of Object.entries(address))
      if (!(field in row.values)) put(field, text, field.replace('_', ' '));
    if (notes.length && fields.notes) row.values.notes = notes.join('\n\n');
    if (value !== undefined && row.values.estimated_value === undefined && fields.estimated_value)
      row.values.estimated_value = value;
    else if (value !== undefined && fields.value) row.values.value = value;
    if (name) {
      row.values.first_name = name.first_name;
      row.values.last_name = name.last_name;
    }
    if (fields.latitude && fields.longitude) fillCoordinates(row.values);

    // The contractor named on the row (not the record itself).
    if (type !== 'contractor') {
      Object.assign(contractor, contractorAddress);
      if (contractorNotes.length) contractor.notes = contractorNotes.join('\n\n');
      if (contractor.name || contractor.external_id) {
        if (!contractor.name) contractor.name = String(contractor.external_id);
        fillCoordinates(contractor);
        row.contractor = contractor;
      }
    }

    for (const contact of contacts) {
      if (!contact || (!contact.name && !contact.email && !contact.phone)) continue;
      const parts = contact.name
        ? splitName(contact.name)
        : { first_name: contact.email?.split('@')[0] ?? contact.phone ?? '', last_name: '' };
      row.contacts.push({
        ...parts,
        ...(contact.email ? { email: contact.email } : {}),
        ...(contact.phone ? { phone: contact.phone } : {}),
      });
    }

    return row;
  };

  return { map, missing, located };
}

export type Mapper = ReturnType<typeof createMapper>;

/** A cell as a value of the field it goes to (its type's `fromCell`); text passes through (validation checks it). */
function convert(raw: string, spec: FieldSpec) {
  return moduleOfSpec(spec).fromCell(raw, spec);
}

function pickFields(values: Record<string, unknown>, fields: Record<string, FieldSpec>) {
  return Object.fromEntries(Object.entries(values).filter(([key]) => key in fields));
}

const US_STATE = /^([A-Za-z]{2})\s+(\d{5}(?:-\d{4})?)$/;
const CA_POSTAL = /^([A-Za-z]{2})\s+([A-Za-z]\d[A-Za-z]\s?\d[A-Za-z]\d)$/;

/** "123 Main St, Los Angeles, CA 90012" → street, city, state, postal code (best effort; unknown parts stay in street). */
export function parseAddress(text: string): Record<string, string> {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const result: Record<string, string> = {};
  if (parts.length >= 2) {
    const last = parts[parts.length - 1];
    const match = US_STATE.exec(last) ?? CA_POSTAL.exec(last);
    if (match) {
      result.state = match[1].toUpperCase();
      result.postal_code = match[2].toUpperCase();
      parts.pop();
    } else if (/^[A-Za-z]{2}$/.test(last)) {
      result.state = last.toUpperCase();
      parts.pop();
    } else if (/^\d{5}(-\d{4})?$/.test(last)) {
      result.postal_code = last;
      parts.pop();
    }
    if (parts.length >= 2) result.city = parts.pop()!;
  }
  result.street = parts.join(', ');
  if (!result.street) delete result.street;
  return result;
}

/** No coordinates on the row: the centre of its postal code (US ZIP or Canadian FSA), when known. */
function fillCoordinates(values: Record<string, unknown>) {
  const hasLat = typeof values.latitude === 'number';
  const hasLng = typeof values.longitude === 'number';
  if (hasLat && hasLng) {
    if (checkLatLng(values.latitude as number, values.longitude as number)) {
      delete values.latitude;
      delete values.longitude;
    }
    return;
  }
  const postal = typeof values.postal_code === 'string' ? values.postal_code.trim() : '';
  if (!postal) return;
  const key = /^\d{5}/.test(postal) ? postal.slice(0, 5) : postal.replace(/\s+/g, '').slice(0, 3).toUpperCase();
  const found = postalCentre(key);
  if (found) {
    values.latitude = found.latitude;
    values.longitude = found.longitude;
  }
}

function dedupe(names: string[]) {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
