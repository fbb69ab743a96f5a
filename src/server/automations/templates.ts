/**
 * Values of actions with placeholders filled from what set the automation off (docs/automations.md "Placeholders"):
 * `{{site.name}}` (the record, by its type), `{{record.name}}` (the same, whatever its type), `{{webhook.key}}` (an
 * incoming message's body), `{{today}}`, `{{now}}`. A value that is one placeholder alone keeps its type (an id stays
 * a number, for a relation field); inside text, values are written as text (lists joined with commas, nothing for an
 * empty value). An unknown name is left empty. The result is plain data, never HTML.
 */
const PLACEHOLDER = /\{\{\s*([a-z0-9_]+(?:\.[a-z0-9_-]+)*)\s*\}\}/gi;
const ALONE = /^\{\{\s*([a-z0-9_]+(?:\.[a-z0-9_-]+)*)\s*\}\}$/i;

export type TemplateContext = Record<string, unknown>;

function lookup(context: TemplateContext, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(asText).join(', ');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The names of the placeholders in `template` (`{{first_name}}` gives `first_name`), each once. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** `template` with its placeholders filled: strings inside objects and lists too. */
export function fill(template: unknown, context: TemplateContext): unknown {
  if (typeof template === 'string') {
    const alone = ALONE.exec(template);
    if (alone) return lookup(context, alone[1]!) ?? null;
    return template.replace(PLACEHOLDER, (_, path: string) => asText(lookup(context, path)));
  }
  if (Array.isArray(template)) return template.map((item) => fill(item, context));
  if (template && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fill(value, context)]));
  return template;
}

/** Filled as text (titles, subjects, addresses). */
export const fillText = (template: string, context: TemplateContext) => asText(fill(template, context));
