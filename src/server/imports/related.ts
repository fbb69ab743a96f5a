import { sql, type Transaction } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { batchFields, type FieldsCache } from '../records/batch-writer.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceRegistry } from '../records/registry.js';
import type { ResourceDefinition } from '../records/resource.js';
import { slugify } from '../seed/reference-data.js';
import type { ContactInput } from './mapper.js';
import { definitionFor } from './record-types.js';

export type Resolved = { id: number } | { error: string };

/**
 * Related records named on the rows of one chunk (trades, unions, classifications, site statuses, contractors,
 * contacts): matched case-insensitively in one query per kind, and created in bulk through the data service's
 * batch path when the importer allows it (and the person may create them).
 */
export class RelatedResolver {
  constructor(
    private readonly records: RecordService,
    private readonly resources: ResourceRegistry,
    private readonly trx: Transaction<DB>,
    private readonly user: AuthUser,
    private readonly importId: number,
    private readonly createRelated: boolean,
    private readonly fieldsCache?: FieldsCache,
  ) {}

  /**
   * Reference rows by name (trade, union, classification, site-status): lower-cased name → id or error. A name no
   * row has that is the slug of one (`Planning` for a status renamed since from Planning: its slug is still
   * `planning`) is that row: it is neither created again nor refused for its taken slug.
   */
  async byName(type: string, names: readonly string[]): Promise<Map<string, Resolved>> {
    const result = new Map<string, Resolved>();
    const def = definitionFor(this.resources, type);
    const bySlug = await this.renamed(def, dedupe(names));
    for (const [name, id] of bySlug) result.set(name, { id });
    const unique = dedupe(names).filter((name) => !bySlug.has(name.toLowerCase()));
    if (!unique.length) return result;
    const outcomes = await this.records.importBatch(
      this.trx,
      this.user,
      def,
      unique.map((name) => ({ values: { name } })),
      {
        importId: this.importId,
        fieldsCache: this.fieldsCache,
        keyField: 'name',
        create: this.createRelated,
        update: false,
      },
    );
    unique.forEach((name, i) => {
      const outcome = outcomes[i];
      result.set(
        name.toLowerCase(),
        outcome.id ? { id: outcome.id } : { error: `${def.singular} "${name}": ${outcome.reason ?? 'not found.'}` },
      );
    });
    return result;
  }

  /** Of `names`, those no readable row is named but one has as its slug (by slugify, as a new row's slug is made): lower-cased name → id. */
  private async renamed(def: ResourceDefinition, names: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (!names.length || !('slug' in def.fields)) return found;
    const lower = names.map((name) => name.toLowerCase());
    const slugs = names.map((name) => slugify(name)).filter(Boolean);
    const rows = await (await this.records.visibleRows(this.trx, def, this.user))
      .select(['t.id', sql<string>`lower(t.name)`.as('name'), 't.slug'])
      .where((eb) => eb.or([eb(sql`lower(t.name)`, 'in', lower), ...(slugs.length ? [eb('t.slug', 'in', slugs)] : [])]))
      .orderBy('t.id')
      .execute();
    const named = new Set(rows.map((row) => row.name));
    for (const name of lower) {
      if (named.has(name)) continue;
      const row = rows.find((r) => r.slug && r.slug === slugify(name));
      if (row) found.set(name, Number(row.id));
    }
    return found;
  }

  /**
   * Contractors named on rows: matched by their id (external_id) when the row has one, else by name; new ones
   * created with what the row says (phone, address...), known ones used as they are. Key: `id:<external_id>` or `name:<lower name>`.
   */
  async contractors(
    list: ReadonlyArray<Record<string, unknown>>,
    defaultType = 'none',
  ): Promise<Map<string, Resolved>> {
    const result = new Map<string, Resolved>();
    if (!list.length) return result;
    const def = definitionFor(this.resources, 'contractor');
    const fields = await batchFields(this.records, def, this.trx, this.fieldsCache);
    const byId = new Map<string, Record<string, unknown>>();
    const byName = new Map<string, Record<string, unknown>>();
    for (const contractor of list) {
      const key = contractorKey(contractor);
      const values = Object.fromEntries(Object.entries(contractor).filter(([field]) => field in fields));
      if (key.startsWith('id:')) byId.set(key, values);
      else byName.set(key, values);
    }
    for (const [group, keyField] of [
      [byId, 'external_id'],
      [byName, 'name'],
    ] as const) {
      if (!group.size) continue;
      const keys = [...group.keys()];
      const outcomes = await this.records.importBatch(
        this.trx,
        this.user,
        def,
        keys.map((key) => ({ values: group.get(key)! })),
        {
          importId: this.importId,
          fieldsCache: this.fieldsCache,
          keyField,
          create: this.createRelated,
          // Matched contractors are used as they are: a site file names its contractor on many rows, and the
          // contractor list importer is where contractors are kept up to date.
          update: false,
          createDefaults: { type: defaultType },
        },
      );
      keys.forEach((key, i) => {
        const outcome = outcomes[i];
        result.set(
          key,
          outcome.id
            ? { id: outcome.id }
            : {
                error: `Contractor "${String(group.get(key)!.name ?? key.slice(3))}": ${outcome.reason ?? 'not found.'}`,
              },
        );
      });
    }
    return result;
  }

  /** Contacts: matched by e-mail (any case), else by full name; new ones created. Key: contactKey(). */
  async contacts(list: readonly ContactInput[]): Promise<Map<string, Resolved>> {
    const result = new Map<string, Resolved>();
    const unique = new Map<string, ContactInput>();
    for (const contact of list) {
      const key = contactKey(contact);
      if (!unique.has(key)) unique.set(key, contact);
    }
    if (!unique.size) return result;
    const def = definitionFor(this.resources, 'contact');
    const emails = [...unique.values()].filter((c) => c.email).map((c) => c.email!.trim().toLowerCase());
    const names = [...unique.values()].filter((c) => !c.email).map((c) => fullName(c));
    const found = await sql<{ id: number; email: string | null; name: string }>`
      select id, lower(email) as email, lower(trim(first_name || ' ' || last_name)) as name from contacts
      where deleted_at is null and (lower(email) = any(${emails}::text[]) or (email is null and lower(trim(first_name || ' ' || last_name)) = any(${names}::text[])))
      order by id`.execute(this.trx);
    const known = new Map<string, number>();
    for (const row of found.rows) {
      if (row.email && !known.has(`email:${row.email}`)) known.set(`email:${row.email}`, row.id);
      if (!known.has(`name:${row.name}`)) known.set(`name:${row.name}`, row.id);
    }
    const missing: Array<[string, ContactInput]> = [];
    for (const [key, contact] of unique) {
      const id = known.get(key);
      if (id) result.set(key, { id });
      else missing.push([key, contact]);
    }
    if (missing.length) {
      const fields = await batchFields(this.records, def, this.trx, this.fieldsCache);
      const outcomes = await this.records.importBatch(
        this.trx,
        this.user,
        def,
        missing.map(([, contact]) => ({
          values: Object.fromEntries(Object.entries(contact).filter(([field]) => field in fields)),
        })),
        { importId: this.importId, fieldsCache: this.fieldsCache, keyField: null, create: this.createRelated },
      );
      missing.forEach(([key, contact], i) => {
        const outcome = outcomes[i];
        result.set(
          key,
          outcome.id
            ? { id: outcome.id }
            : { error: `Contact "${fullName(contact) || contact.email}": ${outcome.reason ?? 'not created.'}` },
        );
      });
    }
    return result;
  }
}

export function contractorKey(contractor: Record<string, unknown>) {
  const externalId = String(contractor.external_id ?? '').trim();
  return externalId
    ? `id:${externalId}`
    : `name:${String(contractor.name ?? '')
        .trim()
        .toLowerCase()}`;
}

export function contactKey(contact: ContactInput) {
  return contact.email ? `email:${contact.email.trim().toLowerCase()}` : `name:${fullName(contact)}`;
}

const fullName = (contact: ContactInput) => `${contact.first_name} ${contact.last_name}`.trim().toLowerCase();

function dedupe(names: readonly string[]) {
  const seen = new Map<string, string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()];
}
