/**
 * Reading a file's cell as a field's value (imports): the ways of writing dates, amounts, yes/no and choices that the
 * field types share (common/import-values.ts reads each form). A type's module names the one its values take
 * (`fromCell`); text passes through, checked afterwards like any value.
 */
import { normalise, type Parsed, parseDate, parseFlag, parseMoney, parseNumber } from '../import-values.js';
import type { FieldSpec } from './define.js';

export type CellReader = (cell: string, spec: FieldSpec) => Parsed<unknown>;

/** A list written in one cell: `a, b; c | d / e`. */
export const splitList = (text: string) =>
  text
    .split(/[,;|/]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const slug = (text: string) => normalise(text).replace(/\s+/g, '-');

/** As written (text of every sort): the field's check reads it. */
export const asText: CellReader = (cell) => ({ ok: true, value: cell });

export const asDate: CellReader = (cell) => parseDate(cell);

export const asDateTime: CellReader = (cell) => {
  const date = parseDate(cell);
  if (!Number.isNaN(Date.parse(cell))) return { ok: true, value: new Date(cell).toISOString() };
  return date.ok ? { ok: true, value: `${date.value}T00:00:00.000Z` } : date;
};

/** A number, or an amount as vendors write it ($1,250,000.00, 1.25M). */
export const asNumber: CellReader = (cell) => {
  const plain = parseNumber(cell);
  return plain.ok ? plain : parseMoney(cell);
};

/** A whole number; a relation may name its record instead (the import looks the name up: relation-names.ts). */
export const asWholeNumber: CellReader = (cell, spec) => {
  const parsed = parseNumber(cell);
  if (parsed.ok && Number.isInteger(parsed.value)) return parsed;
  return spec.references ? { ok: true, value: cell } : { ok: false, error: `"${cell}" is not a whole number.` };
};

export const asFlag: CellReader = (cell) => parseFlag(cell);

/** A list of ids or names (several related records). */
export const asList: CellReader = (cell) => ({ ok: true, value: splitList(cell) });

/** A file's cell for a choice: the choice's value, or its label as people write it (case and punctuation aside). */
function choiceValue(raw: string, spec: FieldSpec): string | undefined {
  const options = spec.options ?? [];
  if (options.includes(raw)) return raw;
  const wanted = slug(raw);
  return (
    options.find((option) => slug(option) === wanted) ??
    options.find((option) => spec.choiceLabels?.[option] !== undefined && slug(spec.choiceLabels[option]) === wanted)
  );
}

/** One choice (or, for a field of several, a list of them) by value or label; what is neither is named with the labels. */
export const asChoices: CellReader = (cell, spec) => {
  const several = spec.kind === 'enum[]';
  const items = several ? splitList(cell) : [cell];
  const values = items.map((item) => choiceValue(item, spec));
  const unknown = items.filter((_item, i) => values[i] === undefined);
  if (unknown.length)
    return {
      ok: false,
      error: `${unknown.map((item) => `"${item}"`).join(', ')} is not one of the choices: ${(spec.options ?? []).map((option) => spec.choiceLabels?.[option] ?? option).join(', ')}.`,
    };
  return { ok: true, value: several ? values : values[0] };
};

/** A cell by the kind of value its field holds (fields a resource describes without a schema type). */
export const BY_KIND: Record<FieldSpec['kind'], CellReader> = {
  text: asText,
  email: asText,
  phone: asText,
  url: asText,
  color: asText,
  date: asDate,
  datetime: asDateTime,
  number: asNumber,
  integer: asWholeNumber,
  boolean: asFlag,
  enum: asChoices,
  'enum[]': asChoices,
  'integer[]': asList,
  json: asText,
};
