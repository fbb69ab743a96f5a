/**
 * The mapping targets of SPEC section 3: where a CSV column can go. One catalogue for the server (mapping,
 * validation) and the importer editor (target picker, suggestions). A target key is stable text stored in
 * `importer_columns.target`; custom fields of the record type are `custom.<field>`.
 */
import type { SchemaFieldType } from './field-types.js';
import { normalise } from './import-values.js';
import type { SchemaFieldOptions } from './schema-types.js';

export const IMPORT_RECORD_TYPES = ['site', 'contractor', 'member'] as const;
export type ImportRecordType = (typeof IMPORT_RECORD_TYPES)[number];

/**
 * What a target's column holds, in the schema field types (common/field-types.ts): `{type: 'text', options:
 * {input: 'money'}}` for an amount. A column split over several fields (coordinates, a full name, a one-line
 * address) is text.
 */
export interface TargetValue {
  type: SchemaFieldType;
  options?: Pick<SchemaFieldOptions, 'input'>;
}

const MONEY: TargetValue = { type: 'text', options: { input: 'money' } };
const NUMBER: TargetValue = { type: 'text', options: { input: 'number' } };

export interface ImportTarget extends TargetValue {
  key: string;
  label: string;
  group: 'Site' | 'Contractor' | 'Member' | 'Contact 1' | 'Contact 2' | 'Contact 3' | 'Related' | 'Flags';
  /** Record types whose importers may use this target. */
  types: readonly ImportRecordType[];
  /** Header names (normalised) that suggest this target. */
  synonyms: readonly string[];
}

const SITE = ['site'] as const;
const CONTRACTOR_TYPES = ['site', 'contractor', 'member'] as const;
const ALL = ['site', 'contractor', 'member'] as const;

const t = (
  key: string,
  label: string,
  group: ImportTarget['group'],
  value: SchemaFieldType | TargetValue,
  types: readonly ImportRecordType[],
  synonyms: string[] = [],
): ImportTarget => ({
  key,
  label,
  group,
  ...(typeof value === 'string' ? { type: value } : value),
  types,
  synonyms: [normalise(label), ...synonyms.map(normalise)],
});

const notes = (
  prefix: 'site' | 'contractor',
  group: ImportTarget['group'],
  types: readonly ImportRecordType[],
  synonymsFor: (n: number) => string[],
) => [1, 2, 3].map((n) => t(`${prefix}.notes_${n}`, `${group} notes ${n}`, group, 'text', types, synonymsFor(n)));

const contacts = [1, 2, 3].flatMap((n) => {
  const group = `Contact ${n}` as ImportTarget['group'];
  const first = n === 1;
  return [
    t(
      `contact_${n}.name`,
      `Contact ${n} name`,
      group,
      'text',
      ['site', 'contractor'],
      [
        `contact ${n}`,
        `contact name ${n}`,
        `contact${n} name`,
        ...(first ? ['contact name', 'contact person', 'primary contact'] : []),
      ],
    ),
    t(
      `contact_${n}.email`,
      `Contact ${n} email`,
      group,
      'email',
      ['site', 'contractor'],
      [`contact email ${n}`, `email ${n}`, ...(first ? ['contact email', 'email', 'e mail'] : [])],
    ),
    t(
      `contact_${n}.phone`,
      `Contact ${n} phone`,
      group,
      'phone',
      ['site', 'contractor'],
      [`contact phone ${n}`, `phone ${n}`, ...(first ? ['contact phone'] : [])],
    ),
  ];
});

export const IMPORT_TARGETS: readonly ImportTarget[] = [
  // ---- the site --------------------------------------------------------------------------------------
  t('site.name', 'Site name', 'Site', 'text', SITE, [
    'project name',
    'project title',
    'project',
    'job name',
    'job site',
    'jobsite',
    'site',
    'title',
    'name',
  ]),
  t('site.external_id', 'Site id', 'Site', 'text', SITE, [
    'project id',
    'project number',
    'project no',
    'dodge id',
    'dodge report number',
    'dodge number',
    'report number',
    'cc id',
    'constructconnect id',
    'job id',
    'job number',
    'external id',
    'vendor id',
    'id',
  ]),
  t('site.address', 'Site address (one line)', 'Site', 'text', SITE, [
    'full address',
    'project address full',
    'location',
  ]),
  t('site.street', 'Site street', 'Site', 'text', SITE, [
    'address',
    'street',
    'street address',
    'project address',
    'address 1',
    'address line 1',
    'site address',
  ]),
  t('site.city', 'Site city', 'Site', 'text', SITE, ['city', 'project city', 'town']),
  t('site.county', 'Site county', 'Site', 'text', SITE, ['county', 'project county']),
  t('site.state', 'Site state', 'Site', 'text', SITE, ['state', 'st', 'project state', 'province', 'state province']),
  t('site.postal_code', 'Site postal code', 'Site', 'text', SITE, [
    'zip',
    'zip code',
    'zipcode',
    'postal code',
    'postcode',
    'project zip',
    'zip5',
  ]),
  t('site.coordinates', 'Site coordinates (lat, lng)', 'Site', 'text', SITE, [
    'coordinates',
    'lat lng',
    'lat long',
    'latlng',
    'geo',
    'location coordinates',
  ]),
  t('site.latitude', 'Site latitude', 'Site', NUMBER, SITE, ['lat', 'latitude', 'y']),
  t('site.longitude', 'Site longitude', 'Site', NUMBER, SITE, ['lng', 'lon', 'long', 'longitude', 'x']),
  t('site.bid_date', 'Bid date', 'Site', 'date', SITE, [
    'bid date',
    'bid due',
    'bid due date',
    'bids due',
    'bid open date',
  ]),
  t('site.kickoff_date', 'Kickoff date', 'Site', 'date', SITE, [
    'start date',
    'construction start',
    'target start date',
    'kick off',
    'kickoff',
    'est start',
  ]),
  t('site.estimated_value', 'Estimated value', 'Site', MONEY, SITE, [
    'estimated value',
    'est value',
    'project value',
    'valuation',
    'estimated cost',
    'est cost',
    'estimated amount',
    'contract value high',
  ]),
  t('site.value', 'Value', 'Site', MONEY, SITE, ['value', 'amount', 'contract value', 'award amount', 'low bid']),
  t('site.contact', 'Site contact', 'Site', 'text', SITE, ['site contact', 'project contact', 'on site contact']),
  t('site.owner', 'Owner', 'Site', 'text', SITE, ['owner', 'owner name', 'project owner', 'developer', 'client']),
  t('site.representative', 'Representative', 'Site', 'text', SITE, [
    'representative',
    'rep',
    'owner representative',
    'architect',
    'organizer',
    'assigned to',
  ]),
  t('site.source', 'Source', 'Site', 'text', SITE, ['source', 'data source', 'lead source']),
  t('site.status', 'Site status', 'Site', 'text', SITE, ['status', 'project status', 'stage', 'project stage']),
  t('site.craft', 'Site crafts (trades)', 'Site', 'text', SITE, [
    'craft',
    'crafts',
    'trade',
    'trades',
    'scope',
    'work type',
  ]),
  t('site.type', 'Site type', 'Site', 'text', SITE, ['type', 'site type', 'category', 'project type', 'sector']),
  ...notes('site', 'Site', SITE, (n) => [
    `notes ${n}`,
    `note ${n}`,
    `comment ${n}`,
    ...(n === 1 ? ['notes', 'note', 'comments', 'description', 'project description', 'details'] : []),
  ]),

  // ---- the contractor (the record itself in a contractor importer; the general contractor of a site; a member's employer)
  t('contractor.external_id', 'Contractor id', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor id',
    'company id',
    'vendor number',
    'contractor number',
    'license number',
    'license',
    'cslb',
  ]),
  t('contractor.name', 'Contractor name', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor',
    'contractor name',
    'company',
    'company name',
    'general contractor',
    'gc',
    'gc name',
    'employer',
    'firm',
    'business name',
  ]),
  t('contractor.phone', 'Contractor phone', 'Contractor', 'phone', CONTRACTOR_TYPES, [
    'contractor phone',
    'company phone',
    'gc phone',
    'office phone',
    'main phone',
  ]),
  t('contractor.type', 'Contractor type', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor type',
    'company type',
    'union status',
    'signatory',
  ]),
  t('contractor.address', 'Contractor address (one line)', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor full address',
    'company full address',
  ]),
  t('contractor.street', 'Contractor street', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor address',
    'company address',
    'gc address',
    'mailing address',
  ]),
  t('contractor.city', 'Contractor city', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor city',
    'company city',
    'gc city',
  ]),
  t('contractor.state', 'Contractor state', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor state',
    'company state',
    'gc state',
  ]),
  t('contractor.postal_code', 'Contractor postal code', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor zip',
    'company zip',
    'gc zip',
  ]),
  t('contractor.coordinates', 'Contractor coordinates (lat, lng)', 'Contractor', 'text', CONTRACTOR_TYPES, [
    'contractor coordinates',
  ]),
  t('contractor.latitude', 'Contractor latitude', 'Contractor', NUMBER, CONTRACTOR_TYPES, [
    'contractor lat',
    'contractor latitude',
  ]),
  t('contractor.longitude', 'Contractor longitude', 'Contractor', NUMBER, CONTRACTOR_TYPES, [
    'contractor lng',
    'contractor longitude',
  ]),
  ...notes('contractor', 'Contractor', CONTRACTOR_TYPES, (n) => [
    `contractor note ${n}`,
    ...(n === 1 ? ['contractor notes', 'company notes'] : []),
  ]),

  // ---- the member ------------------------------------------------------------------------------------
  t(
    'member.name',
    'Member (full name)',
    'Member',
    'text',
    ['member'],
    ['member', 'member name', 'full name', 'name', 'employee', 'employee name'],
  ),
  t(
    'member.first_name',
    'Member first name',
    'Member',
    'text',
    ['member'],
    ['first name', 'first', 'given name', 'fname'],
  ),
  t(
    'member.last_name',
    'Member last name',
    'Member',
    'text',
    ['member'],
    ['last name', 'last', 'surname', 'family name', 'lname'],
  ),
  t(
    'member.email',
    'Member email',
    'Member',
    'email',
    ['member'],
    ['email', 'e mail', 'email address', 'member email'],
  ),
  t(
    'member.phone',
    'Member phone',
    'Member',
    'phone',
    ['member'],
    ['phone', 'cell', 'mobile', 'cell phone', 'phone number', 'member phone'],
  ),
  t(
    'member.number',
    'Member number',
    'Member',
    'text',
    ['member'],
    ['member number', 'member no', 'member id', 'card number', 'ua number', 'book number', 'membership number'],
  ),
  t(
    'member.joined_at',
    'Member since',
    'Member',
    'date',
    ['member'],
    ['joined', 'join date', 'initiation date', 'member since', 'date joined', 'initiated'],
  ),

  // ---- contacts (up to three per row) ------------------------------------------------------------------
  ...contacts,

  // ---- related records by name ---------------------------------------------------------------------------
  t('classification', 'Classification', 'Related', 'text', ALL, [
    'classification',
    'class',
    'classification name',
    'job class',
    'rating',
  ]),
  t('craft', 'Craft (trade)', 'Related', 'text', ALL, ['craft', 'trade', 'craft name', 'trade name']),
  t('union', 'Union', 'Related', 'text', ALL, ['union', 'local', 'union local', 'union name', 'local union']),

  // ---- flags -----------------------------------------------------------------------------------------
  t(
    'is_site_contact',
    'Is Site Contact',
    'Flags',
    'boolean',
    ['site'],
    ['is site contact', 'site contact flag', 'on site'],
  ),
  t('is_steward', 'Is Steward', 'Flags', 'boolean', ['member'], ['is steward', 'steward', 'shop steward']),
];

export const TARGETS_BY_KEY: ReadonlyMap<string, ImportTarget> = new Map(
  IMPORT_TARGETS.map((target) => [target.key, target]),
);

/** Which targets can be the key that matches a row to an existing record, per record type. */
export const KEY_TARGETS: Record<ImportRecordType, readonly string[]> = {
  site: ['site.external_id', 'site.name'],
  contractor: ['contractor.external_id', 'contractor.name'],
  member: ['member.number', 'member.email'],
};

/** The record field each key target matches on. */
export const KEY_FIELDS: Record<string, string> = {
  'site.external_id': 'external_id',
  'site.name': 'name',
  'contractor.external_id': 'external_id',
  'contractor.name': 'name',
  'member.number': 'member_number',
  'member.email': 'email',
};

export interface CustomFieldInfo {
  key: string;
  label: string;
}

/** The targets an importer of `type` offers, custom fields of that record type included. */
export function targetsFor(type: ImportRecordType, customFields: readonly CustomFieldInfo[] = []): ImportTarget[] {
  const builtIn = IMPORT_TARGETS.filter((target) => target.types.includes(type));
  const custom = customFields.map((field) =>
    t(`custom.${field.key}`, field.label, 'Related', 'text', [type], [field.key]),
  );
  for (const target of custom) (target as { group: string }).group = 'Custom fields';
  return [...builtIn, ...custom];
}

/** `customKeys` 'any': any well-formed `custom.<field>` passes (checked against the record type's fields when importing). */
export function isKnownTarget(
  key: string,
  type: ImportRecordType,
  customKeys: readonly string[] | 'any' = 'any',
): boolean {
  if (key === '' || key === 'ignore') return true;
  if (key.startsWith('custom.'))
    return customKeys === 'any' ? /^[a-z0-9_-]{1,100}$/i.test(key.slice(7)) : customKeys.includes(key.slice(7));
  return TARGETS_BY_KEY.get(key)?.types.includes(type) ?? false;
}

/**
 * Suggests a target for each header: an exact synonym match first, then the longest synonym contained in the
 * header. Each target is suggested once (the first header that claims it wins); the rest get ''.
 */
export function suggestTargets(
  headers: readonly string[],
  type: ImportRecordType,
  customFields: readonly CustomFieldInfo[] = [],
): string[] {
  const targets = targetsFor(type, customFields);
  const taken = new Set<string>();
  const scored = headers.map((header) => {
    const name = normalise(header.replace(/#/g, ' number '));
    let best: { key: string; score: number } | null = null;
    for (const target of targets) {
      for (const synonym of target.synonyms) {
        if (!synonym) continue;
        let score = 0;
        if (name === synonym) score = 1000 + synonym.length;
        else if (synonym.length >= 4 && ` ${name} `.includes(` ${synonym} `)) score = synonym.length;
        if (score > (best?.score ?? 0)) best = { key: target.key, score };
      }
    }
    return best;
  });
  // Exact matches claim their targets before partial ones.
  const order = scored.map((s, i) => ({ s, i })).sort((a, b) => (b.s?.score ?? 0) - (a.s?.score ?? 0));
  const result = headers.map(() => '');
  for (const { s, i } of order) {
    if (!s || taken.has(s.key)) continue;
    taken.add(s.key);
    result[i] = s.key;
  }
  return result;
}
