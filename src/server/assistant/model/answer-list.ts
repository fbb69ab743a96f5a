import type { TypeInfo } from '../catalogue.js';
import { plainDate } from '../dates.js';
import type { AnswerList } from '../resources.js';
import { labelsOf, splitFilterKey, viewFiltersOf } from '../tools/records.js';
import type { ToolScope } from '../tools/scope.js';
import type { ToolStep } from './loop.js';

const SUFFIX_WORDS: Record<string, string> = {
  _gte: 'from',
  _gt: 'over',
  _lte: 'up to',
  _lt: 'under',
  _neq: 'not',
  _like: 'like',
};

/**
 * The list a model's answer is about, kept with it as a built-in answer's is (resources.ts answerListShape): the
 * last count or list its tools made (type and resolved filters), so that "Save as view" saves it and a follow-up
 * refines it. Named from the filters themselves, not from the model's words: "Sites: type Union, region Fresno
 * County". None when no count or list call succeeded (or it searched by words, which a view's filters cannot hold).
 */
export async function modelAnswerList(scope: ToolScope, steps: readonly ToolStep[]): Promise<AnswerList | null> {
  const last = [...steps].reverse().find((step) => step.result.listed && !step.result.error);
  const listed = last?.result.listed;
  const info = listed ? scope.typeOf(listed.type) : undefined;
  if (!listed || !info) return null;
  return {
    type: info.type,
    mode: listed.mode,
    title: (await listTitle(scope, info, listed.filter)).slice(0, 400),
    filter: listed.filter,
    filters: viewFiltersOf(info, listed.filter),
    words: { adjectives: [], qualifiers: [] },
    ...(listed.group_by ? { group_by: listed.group_by } : {}),
    ...(listed.measure ? { measure: listed.measure } : {}),
  };
}

/** "Sites: type Union, region Fresno County, bid date from Mar 1, 2026": the filters in the person's words. */
async function listTitle(scope: ToolScope, info: TypeInfo, filter: Record<string, unknown>): Promise<string> {
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(filter)) {
    const { field, suffix } = splitFilterKey(info, key);
    if (!field) continue;
    if (suffix === '_null') {
      parts.push(`${raw === true || raw === 'true' ? 'no' : 'with a'} ${field.name}`);
      continue;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    const names = field.target ? await labelsOf(scope, field.target, values.map(Number)) : null;
    const shown = values.map((value) => {
      if (names) return names.get(Number(value)) ?? `#${value}`;
      if (field.choices) return field.words(value) || String(value);
      if (field.kind === 'date' || field.kind === 'datetime') return plainDate(String(value));
      if (typeof value === 'number') return value.toLocaleString('en-US');
      return String(value);
    });
    parts.push(`${field.name}${suffix ? ` ${SUFFIX_WORDS[suffix] ?? ''}` : ''} ${shown.join(' or ')}`);
  }
  const noun = `${info.plural.charAt(0).toUpperCase()}${info.plural.slice(1)}`;
  return parts.length ? `${noun}: ${parts.join(', ')}` : noun;
}
