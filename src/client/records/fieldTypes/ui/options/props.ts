import type { RecordSchema } from '../../../../../common/schema-types';

/** What a field type's options editor (the schema editor's field dialog) is given. */
export interface OptionsEditorProps {
  /** The options the type takes that this editor edits, as they are now. */
  options: Record<string, unknown>;
  /** Replaces the keys it edits (the dialog keeps the others). */
  onChange(next: Record<string, unknown>): void;
  /** A built-in field: what it points at and whether it holds several values are fixed. */
  builtIn: boolean;
  /** The record type the field belongs to, and the field's slug (a formula names the type's other fields). */
  schema?: RecordSchema;
  slug?: string;
  /** The server's messages about its options, by option key (`through` for `options.through`). */
  errors?: Readonly<Record<string, string>>;
}
