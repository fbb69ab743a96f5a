/**
 * What an export writes for each column: what the list shows (a choice's label, a related record's name, Yes/No),
 * and for a column that holds a key (a choice value, an id, a slug) the raw key beside it, headed by the field's
 * name, so the file can be imported back.
 */
import type { Kysely } from 'kysely';
import { moduleOfSpec } from '../../common/field-types.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceRegistry } from '../records/registry.js';
import { labelExpression, namesOf } from '../records/representation.js';
import type { FieldSpec } from '../records/resource.js';

type Row = Record<string, unknown>;
/** Given a page's values of one column, how each is shown (one query per page for names). */
type Shown = (values: unknown[]) => Promise<(value: unknown) => unknown>;

export interface DisplayColumn {
  column: string;
  label: string;
  /** How the list shows the value; absent: the value as stored. */
  shown?: Shown;
  /** The header of the raw key column written after this one (only when ids are asked for). */
  keyHeader?: string;
  /** What a spreadsheet keeps the value as (an .xlsx cell's type and format); absent: text. */
  cell?: SheetCell;
}

/** The typed cells of a spreadsheet: dates, date-times and numbers (money with two decimals). */
export type SheetCell = 'date' | 'datetime' | 'number' | 'money';

/** How a spreadsheet keeps a value of this field; undefined: as text. */
export function sheetCell(column: string, spec: FieldSpec | undefined): SheetCell | undefined {
  if (column === 'created_at' || column === 'updated_at') return 'datetime';
  if (!spec || spec.references || spec.choiceLabels) return undefined;
  if (spec.kind === 'date') return 'date';
  if (spec.kind === 'datetime') return 'datetime';
  if (spec.kind === 'integer') return 'number';
  if (spec.kind === 'number') return spec.step === 0.01 ? 'money' : 'number';
  return undefined;
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value];
const joined = (parts: unknown[]) =>
  parts.filter((part) => part !== null && part !== undefined && part !== '').join('; ');

/** How the list shows a value of this field, or undefined when it shows the value itself. */
export function shownValue(
  spec: FieldSpec | undefined,
  deps: { records: RecordService; db: Kysely<DB>; resources: ResourceRegistry; user: AuthUser | null },
): { shown: Shown; key: boolean } | undefined {
  if (!spec) return undefined;
  const cell = moduleOfSpec(spec).toCell;
  if (cell === 'yes-no')
    return { key: false, shown: async () => (value) => (value === true ? 'Yes' : value === false ? 'No' : '') };
  if (cell === 'choice-labels' && spec.choiceLabels) {
    const labels = spec.choiceLabels;
    return { key: true, shown: async () => (value) => joined(list(value).map((item) => labels[String(item)] ?? item)) };
  }
  if (cell === 'value' && !spec.references && !spec.slugOf) return undefined;
  const target = spec.references ?? (spec.slugOf ? { table: spec.slugOf } : undefined);
  const def = target ? deps.resources.target(target) : undefined;
  if (!def || !labelExpression(def)) return undefined;
  if (spec.references) {
    return {
      key: true,
      shown: async (values) => {
        const names = await namesOf(
          deps.records,
          deps.db,
          def,
          deps.user,
          values.flatMap((value) => list(value).map(Number)),
        );
        return (value) => joined(list(value).map((id) => names.get(Number(id)) ?? id));
      },
    };
  }
  return {
    key: true,
    shown: async () => {
      const entries = await (await deps.records.visibleRows(deps.db, def, deps.user, 'with'))
        .select(['t.slug', labelExpression(def)!.as('label')])
        .execute();
      const names = new Map(entries.map((entry) => [String(entry.slug), String(entry.label)]));
      return (value) => joined(list(value).map((slug) => names.get(String(slug)) ?? slug));
    },
  };
}

/** The header row and the cells of a page of rows. */
export async function displayRows(columns: DisplayColumn[], rows: Row[]): Promise<unknown[][]> {
  const shown = await Promise.all(
    columns.map(async (column) => (column.shown ? column.shown(rows.map((row) => row[column.column])) : undefined)),
  );
  return rows.map((row) =>
    columns.flatMap((column, index) => {
      const value = row[column.column];
      const cell = shown[index] ? shown[index]!(value) : value;
      return column.keyHeader ? [cell, Array.isArray(value) ? value.join('; ') : value] : [cell];
    }),
  );
}

export function headerRow(columns: DisplayColumn[]): string[] {
  return columns.flatMap((column) => (column.keyHeader ? [column.label, column.keyHeader] : [column.label]));
}

/** Each written column's spreadsheet type, aligned with `headerRow` (a raw key column is text). */
export function sheetCells(columns: DisplayColumn[]): Array<SheetCell | undefined> {
  return columns.flatMap((column) => (column.keyHeader ? [column.cell, undefined] : [column.cell]));
}
