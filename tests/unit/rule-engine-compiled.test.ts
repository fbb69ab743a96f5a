import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileBlock } from '../../src/common/form-logic/index.js';
import { compileRule } from '../../src/common/import-rules.js';
import {
  compileCondition,
  evaluate,
  FORM_OPERATORS,
  IMPORT_OPERATORS,
  interpret,
  type JsonLogic,
  LOGIC_OPERATORS,
  RULE_OPERATORS,
  read,
} from '../../src/common/rule-engine/index.js';
import type { LogicBlock } from '../../src/common/schema-types.js';
import { READY_MADE_IMPORTERS } from '../../src/server/imports/ready-made.js';
import { SCHEMAS_DIR } from '../../src/server/schemas/schema-files.js';
import { random, VENDOR_HEADER, vendorRow } from '../fixtures/generate.js';

/**
 * The rule engine's two speeds (src/common/rule-engine): `evaluate` runs a rule compiled to a plain function
 * (compiled.ts), `interpret` walks it with json-logic-js. They must answer the same for every rule the product has:
 * every operator over awkward values, every logic block of schemas/, every rule of the ready-made importers over the
 * demo's vendor rows.
 */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'signed',
  'Signed ',
  'union',
  'closed',
  'electrical work',
  'Solar farm',
  'PLA',
  'public works',
  '0',
  '1',
  '12',
  '1,234.5',
  '-3',
  '$1.25M',
  '(500)',
  '50000000',
  '$50,000,001',
  '2026-03-01',
  '3/1/2026',
  '2026-03-01T10:00:00Z',
  'not a date',
  0,
  1,
  12.5,
  -7,
  Number.NaN,
  true,
  false,
  [],
  ['a', 'b'],
  [''],
  {},
  { a: 1 },
  new Date('2026-03-01T00:00:00Z'),
];
const CONSTANTS: unknown[] = [
  '',
  'signed',
  'electrical',
  '12',
  '1,234.5',
  '2026-03-01',
  '3/1/2026',
  '$1.25M',
  'a,b',
  0,
];

const same = (logic: JsonLogic, data: Record<string, unknown>) =>
  expect(evaluate(logic, data), `${JSON.stringify(logic)} over ${JSON.stringify(data)}`).toBe(interpret(logic, data));

describe('the rule engine, compiled and interpreted', () => {
  it('agrees for every form operator, constant and value', () => {
    for (const operator of LOGIC_OPERATORS)
      for (const constant of CONSTANTS) {
        const logic = compileCondition(operator, read('value'), constant);
        for (const value of VALUES) same(logic, { value });
        same(logic, {});
      }
    expect(Object.keys(FORM_OPERATORS).length).toBe(LOGIC_OPERATORS.length);
  });

  it('agrees for every importer operator, constant and cell', () => {
    for (const operator of RULE_OPERATORS)
      for (const constant of CONSTANTS) {
        const logic = compileRule({ operator, value: String(constant) });
        for (const cell of VALUES) same(logic, { cell });
      }
    expect(Object.keys(IMPORT_OPERATORS).length).toBe(RULE_OPERATORS.length);
  });

  it('agrees for every logic block of schemas/, over its fields’ choices and awkward values', () => {
    let blocks = 0;
    for (const file of readdirSync(SCHEMAS_DIR).filter((name) => name.endsWith('.json'))) {
      const schema = JSON.parse(readFileSync(path.join(SCHEMAS_DIR, file), 'utf8'));
      const choices = (schema.fields ?? []).flatMap((field: { options?: { choices?: unknown[] } }) =>
        (field.options?.choices ?? []).map((choice) =>
          typeof choice === 'object' && choice ? (choice as { value?: unknown }).value : choice,
        ),
      );
      for (const block of (schema.actions ?? []) as LogicBlock[]) {
        blocks++;
        // In the files a source names its field by slug (field:status); the engine reads fields by id.
        const sources = (block.conditions ?? []).map((_, i) => i + 1);
        const logic = compileBlock({
          ...block,
          conditions: (block.conditions ?? []).map((condition, i) => ({ ...condition, source: `field:${sources[i]}` })),
        });
        for (const value of [...VALUES, ...choices, ...(block.conditions ?? []).map((c) => c.value)])
          same(logic, Object.fromEntries(sources.map((id) => [String(id), value])));
      }
    }
    expect(blocks).toBeGreaterThan(0);
  });

  it('agrees for every rule of the ready-made importers over the demo vendor rows', () => {
    const rules = READY_MADE_IMPORTERS.flatMap((importer) => importer.rules);
    expect(rules.length).toBeGreaterThan(0);
    const r = random(35);
    for (let i = 0; i < 300; i++) {
      const cells = vendorRow(i, r);
      for (const rule of rules) {
        const column = VENDOR_HEADER.findIndex((header) => header.toLowerCase() === rule.source.toLowerCase());
        same(compileRule(rule), { cell: column >= 0 ? cells[column] : '' });
      }
    }
  });

  it('agrees for the JSON Logic it leaves to json-logic-js and the edge forms of the rest', () => {
    // Forms the typings refuse but JSON Logic gives a meaning to.
    const rules = [
      { '+': [{ var: 'a' }, 2] },
      { missing: ['a', 'b'] },
      { '<': [1, { var: 'a' }, 20] },
      { '<=': [1, { var: 'a' }, 1] },
      { var: ['a.b', 'fallback'] },
      { var: '' },
      { and: [] },
      { or: [] },
      { if: [] },
      { if: [{ var: 'a' }, 'yes'] },
      { '!': { var: 'a' } },
      { '!!': [{ var: 'a' }] },
      { '==': [{ var: 'a' }, 1] },
      { in: [{ var: 'a' }, 'abc'] },
      true,
      false,
      [],
      [0],
    ] as unknown as JsonLogic[];
    const datas = [{}, { a: 1 }, { a: '1' }, { a: { b: 'x' } }, { a: 'b' }, { a: 0 }, { a: [] }, { a: null }];
    for (const logic of rules) for (const data of datas) same(logic, data);
  });
});
