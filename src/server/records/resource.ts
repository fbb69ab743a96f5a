import type { Kysely, Transaction } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';

/** The kinds of value a field holds; every kind is validated the same way everywhere (fields.ts). */
export type FieldKind =
  | 'text'
  | 'email'
  | 'phone'
  | 'url'
  | 'color'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'enum[]'
  | 'integer[]'
  | 'json';

export interface FieldSpec {
  kind: FieldKind;
  label?: string;
  required?: boolean;
  /** Longest text (characters) or largest number. */
  max?: number;
  min?: number;
  /** Allowed values for enum kinds. */
  options?: readonly string[];
  /** Where the value lives: a real column (default), the `custom` JSONB column, or a pivot table. */
  storage?: 'column' | 'custom' | { pivot: string; ownKey: string; otherKey: string };
  sortable?: boolean;
  filterable?: boolean;
}

export interface WriteContext {
  user: AuthUser | null;
  trx: Transaction<any>;
  /** The row before the write (update, delete, restore). */
  existing?: Record<string, any>;
  importId?: number;
}

export interface ResourceDefinition {
  /** URL segment: `/api/{name}`. */
  name: string;
  /** Record type (realtime `type`, revisions) and, unless `permission` says otherwise, the permission entity. */
  type: string;
  permission?: string;
  table: string;
  /** Used in success messages ('Team created successfully.') unless a schema renames it. */
  singular: string;
  fields: Record<string, FieldSpec>;
  /** Keys a client may send back (computed or read-only); ignored on write rather than refused. */
  readOnly?: string[];
  /** Columns never sent to a client. */
  hidden?: string[];
  /** Columns matched by `search` / `q`. */
  search?: string[];
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  softDelete: boolean;
  restorable: boolean;
  /** A column whose value is a permission category (`site:read:union`): rows are filtered by it. */
  categoryColumn?: string;
  /** Loads the administrator-defined fields of this type (stored in `custom`). */
  customFields?: (db: Kysely<any>) => Promise<Record<string, FieldSpec>>;
  hooks?: {
    /** Adjust validated values before they are written (hash a password, derive a slug). */
    beforeWrite?(values: Record<string, any>, ctx: WriteContext & { action: 'create' | 'update' }): Promise<Record<string, any>> | Record<string, any>;
    /** Work that belongs in the same transaction after the row is written. */
    afterWrite?(record: Record<string, any>, ctx: WriteContext & { action: 'create' | 'update' | 'delete' | 'restore' }): Promise<void> | void;
    /** Add computed keys to rows on their way out (one query for the whole page). */
    present?(rows: Record<string, any>[], db: Kysely<any>): Promise<void> | void;
  };
  /** Extra realtime channels for a record beyond the role channels of those who may read it. */
  channels?(record: Record<string, any>): string[];
}
