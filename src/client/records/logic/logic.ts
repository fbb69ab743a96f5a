/**
 * The form side of the form logic (SPEC sections 4-5), around the one engine in src/common/form-logic:
 * which fields a form must watch (only the condition sources, never the whole form), what to evaluate when the
 * form opens or a watched field changes, how visibility decisions accumulate, and which set-value results
 * actually change something. Pure, so it is unit tested (tests/unit/client/records-logic.test.ts).
 */
import { evaluateLogic, type FieldKey, type Visibility } from '../../../common/form-logic/index';
import { type LogicBlock, parseFieldRef } from '../../../common/schema-types';

export type VisibilityMap = Record<string, Visibility>;

export type LogicEvent = { kind: 'load' } | { kind: 'change'; field: string } | { kind: 'all' };

export interface LogicOutcome {
  visibility: VisibilityMap;
  /** Values set-value actions gave, by slug (all of them; see `changedSetValues`). */
  setValues: Record<string, unknown>;
  warnings: string[];
}

/** The slugs of every field some block's conditions read: all a form needs to watch. */
export function logicSources(blocks: readonly LogicBlock[], fields: readonly FieldKey[]): string[] {
  const slugById = new Map(fields.map((field) => [String(field.id), field.slug]));
  const slugs = new Set<string>();
  for (const block of blocks) {
    for (const condition of block.conditions ?? []) {
      const id = parseFieldRef(condition.source);
      const slug = id === null ? undefined : slugById.get(String(id));
      if (slug) slugs.add(slug);
    }
  }
  return [...slugs].sort();
}

/** The slugs of every field some block shows, hides or sets. */
export function logicTargets(blocks: readonly LogicBlock[], fields: readonly FieldKey[]): string[] {
  const slugById = new Map(fields.map((field) => [String(field.id), field.slug]));
  const slugs = new Set<string>();
  for (const block of blocks) {
    for (const action of block.actions ?? []) {
      const id = parseFieldRef(action.target);
      const slug = id === null ? undefined : slugById.get(String(id));
      if (slug) slugs.add(slug);
    }
  }
  return [...slugs].sort();
}

const warned = new Set<string>();
function warnOnce(message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(message);
}

/**
 * Runs the blocks an event triggers: 'load' runs always and on-load blocks, 'change' runs always blocks and the
 * on-change blocks that read the changed field, 'all' runs every block (show pages, as the server does). A
 * broken block (a reference that is not `field:{id}`) is reported and leaves the form as it was.
 */
export function runLogic(
  blocks: readonly LogicBlock[],
  values: Record<string, unknown>,
  fields: readonly FieldKey[],
  event: LogicEvent,
): LogicOutcome {
  if (!blocks.length) return { visibility: {}, setValues: {}, warnings: [] };
  try {
    const trigger = event.kind === 'load' ? 'on-load' : event.kind === 'change' ? 'on-change' : 'all';
    const result = evaluateLogic(blocks, values, {
      trigger,
      changedField: event.kind === 'change' ? event.field : undefined,
      fields,
      logger: warnOnce,
    });
    return { visibility: result.visibility, setValues: result.setValues, warnings: result.warnings };
  } catch (error) {
    const message = `The form logic could not run: ${(error as Error).message}`;
    warnOnce(message);
    return { visibility: {}, setValues: {}, warnings: [message] };
  }
}

/** Later decisions win; fields no block has decided on stay as they were. */
export function mergeVisibility(previous: VisibilityMap, next: VisibilityMap): VisibilityMap {
  let changed = false;
  for (const [key, value] of Object.entries(next)) {
    if (previous[key] !== value) {
      changed = true;
      break;
    }
  }
  return changed ? { ...previous, ...next } : previous;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const blank = (value: unknown) => value === undefined || value === null || value === '';
  if (blank(a) && blank(b)) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** The set-value results that change the form (a set-value to the value already there does nothing). */
export function changedSetValues(
  setValues: Record<string, unknown>,
  current: Record<string, unknown>,
): Array<[string, unknown]> {
  return Object.entries(setValues).filter(([key, value]) => !sameValue(current[key], value));
}

/** Which watched fields differ between two snapshots (`names[i]` is the name of `before[i]` and `after[i]`). */
export function changedFields(
  names: readonly string[],
  before: readonly unknown[],
  after: readonly unknown[],
): string[] {
  return names.filter((_name, index) => !sameValue(before[index], after[index]));
}

export function isHidden(visibility: VisibilityMap, slug: string): boolean {
  return visibility[slug] === 'hidden';
}
