/**
 * The rule engine's second speed: a JSON Logic rule turned once into a plain function of the data, so a rule that
 * runs for every row of an import or every value of a form costs a few calls, not a walk of the rule's structure
 * each time. It follows json-logic-js's meaning exactly for the operations our vocabularies compile to (`var`,
 * `if`, `and`, `or`, `!`, `!!`, the comparisons, `in`, and the operations engine.ts adds); any other operation is
 * left to json-logic-js itself. tests/unit/rule-engine-compiled.test.ts checks that both speeds answer the same for
 * every operator and every rule of schemas/ and the ready-made importers.
 */
import jsonLogic from 'json-logic-js';

type Data = Record<string, unknown>;
export type CompiledLogic = (data: Data) => unknown;

const truthy = (value: unknown) => (Array.isArray(value) && value.length === 0 ? false : !!value);

const isLogic = (logic: unknown): logic is Record<string, unknown> =>
  typeof logic === 'object' && logic !== null && !Array.isArray(logic) && Object.keys(logic).length === 1;

// The comparisons are JavaScript's, on whatever the values are (strings, numbers, null), as json-logic-js has them.
type Loose = number;
const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  // biome-ignore lint/suspicious/noDoubleEquals: JSON Logic's == is JavaScript's loose equality.
  '==': (a, b) => a == b,
  // biome-ignore lint/suspicious/noDoubleEquals: JSON Logic's != is JavaScript's loose inequality.
  '!=': (a, b) => a != b,
  '>': (a, b) => (a as Loose) > (b as Loose),
  '>=': (a, b) => (a as Loose) >= (b as Loose),
  in: (a, b) => {
    const list = b as { indexOf?: (item: unknown) => number } | null | undefined;
    return !list || typeof list.indexOf === 'undefined' ? false : list.indexOf(a) !== -1;
  },
};

/** `var`'s lookup: a dotted path into the data, null (or the default) where it ends. */
function lookUp(data: unknown, key: unknown, notFound: unknown): unknown {
  if (key === undefined || key === '' || key === null) return data;
  let found = data;
  for (const part of String(key).split('.')) {
    if (found === null || found === undefined) return notFound;
    found = (found as Record<string, unknown>)[part];
    if (found === undefined) return notFound;
  }
  return found;
}

function compileVar(args: unknown[], added: Operations): CompiledLogic {
  const [key, fallback] = args;
  if (!isLogic(key) && !isLogic(fallback) && !Array.isArray(key)) {
    const notFound = fallback === undefined ? null : fallback;
    // The common case, a plain name: one property read.
    if (typeof key === 'string' && key !== '' && !key.includes('.'))
      return (data) => {
        const found = data?.[key];
        return found === undefined ? notFound : found;
      };
    return (data) => lookUp(data, key, notFound);
  }
  const [keyOf, fallbackOf] = [node(key, added), node(fallback, added)];
  return (data) => {
    const value = fallbackOf(data);
    return lookUp(data, keyOf(data), value === undefined ? null : value);
  };
}

type Operations = Readonly<Record<string, (...args: unknown[]) => unknown>>;
type Rule = Parameters<typeof jsonLogic.apply>[0];

function node(logic: unknown, added: Operations): CompiledLogic {
  if (Array.isArray(logic)) {
    const parts = logic.map((part) => node(part, added));
    return (data) => parts.map((part) => part(data));
  }
  if (!isLogic(logic)) return () => logic;
  const op = Object.keys(logic)[0];
  const raw = logic[op];
  const args = Array.isArray(raw) ? raw : [raw];
  if (op === 'var') return compileVar(args, added);
  const parts = args.map((arg) => node(arg, added));
  if (op === 'if' || op === '?:')
    return (data) => {
      let i = 0;
      for (; i < parts.length - 1; i += 2) if (truthy(parts[i](data))) return parts[i + 1](data);
      return parts.length === i + 1 ? parts[i](data) : null;
    };
  if (op === 'and')
    return (data) => {
      let current: unknown;
      for (const part of parts) {
        current = part(data);
        if (!truthy(current)) return current;
      }
      return current;
    };
  if (op === 'or')
    return (data) => {
      let current: unknown;
      for (const part of parts) {
        current = part(data);
        if (truthy(current)) return current;
      }
      return current;
    };
  if (op === '!') {
    const [a] = parts;
    return a ? (data) => !truthy(a(data)) : () => true;
  }
  if (op === '!!') {
    const [a] = parts;
    return a ? (data) => truthy(a(data)) : () => false;
  }
  if (op === '<' || op === '<=') {
    const less =
      op === '<'
        ? (a: unknown, b: unknown) => (a as Loose) < (b as Loose)
        : (a: unknown, b: unknown) => (a as Loose) <= (b as Loose);
    const [a, b, c] = parts;
    if (!a || !b) return (data) => jsonLogic.apply(logic as Rule, data);
    return c
      ? (data) => {
          const [x, y, z] = [a(data), b(data), c(data)];
          return z === undefined ? less(x, y) : less(x, y) && less(y, z);
        }
      : (data) => less(a(data), b(data));
  }
  const binary = Object.hasOwn(BINARY, op) ? BINARY[op] : undefined;
  if (binary) {
    const [a, b] = parts;
    if (a && b && parts.length === 2) return (data) => binary(a(data), b(data));
  }
  const operation = Object.hasOwn(added, op) ? added[op] : undefined;
  if (operation) {
    if (parts.length === 1) {
      const [a] = parts;
      return (data) => operation(a(data));
    }
    if (parts.length === 2) {
      const [a, b] = parts;
      return (data) => operation(a(data), b(data));
    }
    return (data) => operation(...parts.map((part) => part(data)));
  }
  // Anything else (arithmetic, map/filter, missing...) as json-logic-js has it: one engine, whatever the speed.
  return (data) => jsonLogic.apply(logic as Rule, data);
}

/**
 * The rule as a function answering whether it holds for some data (JSON Logic truthiness: an empty list is false).
 * `added`: the operations engine.ts adds to json-logic-js, so both speeds call the very same functions.
 */
export function compileLogic(logic: unknown, added: Operations): (data: Data) => boolean {
  const run = node(logic, added);
  return (data) => truthy(run(data));
}
