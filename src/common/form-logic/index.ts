/**
 * The form logic of SPEC sections 4 and 5, written once: the forms run it as values change, and the server runs
 * it when it validates (a field the logic hides is never required). Pure: no I/O, no framework.
 *
 * For each block whose trigger applies:
 * - a source or target that is not `field:{id}` throws 'Invalid source type' / 'Invalid target type';
 * - a block one of whose condition sources is also one of its action targets is skipped as circular, with a warning;
 * - otherwise its conditions, compiled to JSON Logic by the rule engine (src/common/rule-engine), are evaluated:
 *   all must hold, or any one when the block's `match` is 'any'; a block without conditions always holds. A
 *   missing field counts as empty text;
 * - when they hold: show-field makes the target visible, hide-field hidden, set-value gives it the value (the form
 *   is told through `onSetValue`, and later blocks see the new value); a hidden field keeps its value unless the
 *   block that hid it says `clear_hidden` (`cleared`);
 * - when they do not hold: show-field hides the target and hide-field shows it (a field shown "when X" is hidden
 *   otherwise); set-value does nothing.
 * Blocks run in the order given; when two blocks decide on one field, the later one wins.
 */
import {
  compileCondition,
  evaluate,
  type JsonLogic,
  joinConditions,
  RuleError,
  read,
  valueAsText,
} from '../rule-engine/index.js';
import { type LogicBlock, type LogicOperator, type LogicTrigger, parseFieldRef } from '../schema-types.js';

export { valueAsText };

export type Visibility = 'visible' | 'hidden';

export interface FieldKey {
  id: number | string;
  slug: string;
}

export interface EvaluateOptions {
  /** What happened: the form opened (on-load), a field changed (on-change), a plain re-evaluation (always), or 'all' (the server: every block). */
  trigger: LogicTrigger | 'all';
  /** on-change: the field that changed, as id, slug or `field:{id}`. on-change blocks run only when one of their sources changed. */
  changedField?: number | string;
  /** Maps field ids to the slugs `values` is keyed by. Without it, values and results are keyed by id. */
  fields?: readonly FieldKey[];
  /** Receives each warning (default: console.warn). */
  logger?: (message: string) => void;
  /** Called for each set-value action that fires, in order. */
  onSetValue?: (field: string, value: unknown) => void;
}

export interface LogicResult {
  /** Fields some block decided on, by slug (or id when no field list was given). Others keep their default (visible). */
  visibility: Record<string, Visibility>;
  /** Values set by set-value actions, by slug (or id). */
  setValues: Record<string, unknown>;
  /**
   * Hidden fields whose value goes with them: hidden last by a block that says `clear_hidden`. Other hidden fields keep
   * what they hold (and are neither required nor checked while hidden).
   */
  cleared: Record<string, true>;
  /** The values after the set-value actions. */
  values: Record<string, unknown>;
  warnings: string[];
  /** Blocks skipped as circular (their index in `blocks`). */
  skipped: number[];
}

export { RuleError as LogicError };

/** One condition on its own: does `actual` satisfy `operator expected`? Throws 'Invalid operator' for an unknown one. */
export function compare(operator: LogicOperator, actual: unknown, expected: unknown): boolean {
  return evaluate(compileCondition(operator, read('value'), expected), { value: actual });
}

/** The field ids a block reads and writes; throws 'Invalid source type' / 'Invalid target type'. */
export function blockFields(block: Pick<LogicBlock, 'conditions' | 'actions'>): {
  sources: number[];
  targets: number[];
} {
  const sources = (block.conditions ?? []).map((condition) => {
    const id = parseFieldRef(condition.source);
    if (id === null) throw new RuleError('Invalid source type');
    return id;
  });
  const targets = (block.actions ?? []).map((action) => {
    const id = parseFieldRef(action.target);
    if (id === null) throw new RuleError('Invalid target type');
    return id;
  });
  return { sources, targets };
}

// Blocks come from schema snapshots that are replaced, never changed in place: each is compiled once.
const compiledBlocks = new WeakMap<object, JsonLogic>();

/**
 * A block's conditions as one JSON Logic rule over the values keyed by field id (`{"var": "12"}` reads field:12).
 * Throws 'Invalid source type' or 'Invalid operator'.
 */
export function compileBlock(block: Pick<LogicBlock, 'conditions' | 'match'>): JsonLogic {
  let compiled = compiledBlocks.get(block);
  if (compiled === undefined) {
    compiled = joinConditions(compileConditions(block), block.match);
    compiledBlocks.set(block, compiled);
  }
  return compiled;
}
function compileConditions(block: Pick<LogicBlock, 'conditions'>): JsonLogic[] {
  return (block.conditions ?? []).map((condition) => {
    const id = parseFieldRef(condition.source);
    if (id === null) throw new RuleError('Invalid source type');
    return compileCondition(condition.operator, read(String(id)), condition.value);
  });
}

/** A block is circular when one of its condition sources is also one of its action targets. */
export function isCircular(block: Pick<LogicBlock, 'conditions' | 'actions'>): boolean {
  const { sources, targets } = blockFields(block);
  return sources.some((source) => targets.includes(source));
}

function blockName(block: LogicBlock, index: number) {
  const label = block.description ? ` "${block.description}"` : '';
  return block.id !== undefined ? `Logic block ${block.id}${label}` : `Logic block #${index + 1}${label}`;
}

function triggerApplies(
  block: LogicBlock,
  options: EvaluateOptions,
  sources: number[],
  idOf: (key: number | string) => number | null,
): boolean {
  if (options.trigger === 'all' || block.trigger === 'always') return true;
  if (block.trigger !== options.trigger) return false;
  if (block.trigger === 'on-change' && options.changedField !== undefined) {
    const changed = idOf(options.changedField);
    return changed !== null && sources.includes(changed);
  }
  return true;
}

export function evaluateLogic(
  blocks: readonly LogicBlock[],
  values: Record<string, unknown>,
  options: EvaluateOptions,
): LogicResult {
  const slugById = new Map<number, string>();
  const idBySlug = new Map<string, number>();
  for (const field of options.fields ?? []) {
    slugById.set(Number(field.id), field.slug);
    idBySlug.set(field.slug, Number(field.id));
  }
  const keyOf = (id: number) => slugById.get(id) ?? String(id);
  const idOf = (key: number | string): number | null => {
    if (typeof key === 'number') return key;
    const ref = parseFieldRef(key);
    if (ref !== null) return ref;
    if (idBySlug.has(key)) return idBySlug.get(key)!;
    return /^\d+$/.test(key) ? Number(key) : null;
  };
  const current: Record<string, unknown> = { ...values };
  const valueOf = (id: number) => {
    const key = keyOf(id);
    if (key in current) return current[key];
    return current[`field:${id}`];
  };
  const log = options.logger ?? ((message: string) => console.warn(message));
  const result: LogicResult = {
    visibility: {},
    setValues: {},
    cleared: {},
    values: current,
    warnings: [],
    skipped: [],
  };
  const decide = (key: string, state: Visibility, block: LogicBlock) => {
    result.visibility[key] = state;
    if (state === 'hidden' && block.clear_hidden) result.cleared[key] = true;
    else delete result.cleared[key];
  };

  blocks.forEach((block, index) => {
    const { sources, targets } = blockFields(block);
    if (!triggerApplies(block, options, sources, idOf)) return;
    const circular = sources.filter((source) => targets.includes(source));
    if (circular.length) {
      const warning = `${blockName(block, index)} was skipped: circular dependency (field:${circular[0]} is both a condition source and an action target).`;
      result.warnings.push(warning);
      result.skipped.push(index);
      log(warning);
      return;
    }
    const holds = evaluate(compileBlock(block), Object.fromEntries(sources.map((id) => [String(id), valueOf(id)])));
    (block.actions ?? []).forEach((action, i) => {
      const key = keyOf(targets[i]);
      switch (action.action) {
        case 'show-field':
          decide(key, holds ? 'visible' : 'hidden', block);
          break;
        case 'hide-field':
          decide(key, holds ? 'hidden' : 'visible', block);
          break;
        case 'set-value':
          if (!holds) break;
          current[key] = action.value;
          result.setValues[key] = action.value;
          options.onSetValue?.(key, action.value);
          break;
        default:
          throw new RuleError(`Invalid action ${String((action as { action: unknown }).action)}`);
      }
    });
  });
  return result;
}

/** The fields (by slug) the logic hides for these values, every block considered: what the server never requires. */
export function hiddenFields(
  blocks: readonly LogicBlock[],
  values: Record<string, unknown>,
  fields: readonly FieldKey[],
  logger?: (message: string) => void,
): Set<string> {
  const { visibility } = evaluateLogic(blocks, values, { trigger: 'all', fields, logger });
  return new Set(
    Object.entries(visibility)
      .filter(([, state]) => state === 'hidden')
      .map(([key]) => key),
  );
}
