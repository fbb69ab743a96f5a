/** A value in words, as the history and the assistant say it. */
import { normaliseChoices } from '../schema-types.js';

export function plainWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map(plainWords).filter(Boolean).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A choice by its label ('non-union' -> 'Non-Union'); the value itself when no choice has it. */
export function choiceWords(value: unknown, options: { choices?: unknown }): string {
  const labels = new Map(normaliseChoices(options.choices).map((choice) => [choice.value, choice.label]));
  const one = (item: unknown) =>
    item === null || item === undefined || item === '' ? '' : (labels.get(String(item)) ?? String(item));
  return Array.isArray(value) ? value.map(one).filter(Boolean).join(', ') : one(value);
}
