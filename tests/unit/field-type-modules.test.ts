import { Kysely, PostgresDialect, type RawBuilder, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPE_UIS } from '../../src/client/records/fieldTypes/ui';
import { type FieldSort, type Sql, VALIDATION_OPTIONS } from '../../src/common/field-types/define.js';
import { FIELD_TYPE_MODULES, type FieldTypeModule, SCHEMA_FIELD_TYPES } from '../../src/common/field-types.js';

/** The parts every field type's common module has (src/common/field-types/define.ts FieldTypeModule). */
const COMMON_PARTS: Record<string, (value: unknown) => boolean> = {
  type: (v) => typeof v === 'string',
  label: (v) => typeof v === 'string' && v.length > 0,
  options: (v) => typeof (v as { safeParse?: unknown })?.safeParse === 'function',
  checkOptions: (v) => typeof v === 'function',
  validation: (v) => typeof v === 'function',
  kind: (v) => typeof v === 'function',
  spec: (v) => typeof v === 'function',
  fromCell: (v) => typeof v === 'function',
  toCell: (v) => ['value', 'yes-no', 'choice-labels', 'names'].includes(v as string),
  filters: (v) =>
    typeof v === 'object' &&
    v !== null &&
    Object.values(v).length > 0 &&
    Object.values(v).every((op) => typeof op.label === 'string' && typeof op.sql === 'function'),
  sort: (v) =>
    v === null || (typeof (v as FieldSort).key === 'function' && typeof (v as FieldSort).index === 'function'),
  filterIndex: (v) => typeof v === 'function',
  words: (v) => typeof v === 'function',
  textual: (v) => typeof v === 'boolean',
  groupable: (v) => typeof v === 'boolean',
};

/** The parts every field type's client module has (src/client/records/fieldTypes/ui/define.ts FieldTypeUI). */
const CLIENT_PARTS: Record<string, (value: unknown) => boolean> = {
  type: (v) => typeof v === 'string',
  Input: (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
  Value: (v) => typeof v === 'function',
  filters: (v) => typeof v === 'function',
  editor: (v) => typeof v === 'function',
  history: (v) => typeof v === 'function',
  wide: (v) => typeof v === 'function',
  structured: (v) => typeof v === 'function',
  numberFormat: (v) => typeof v === 'function',
  Options: (v) => v === null || typeof v === 'object' || typeof v === 'function',
};

const missingParts = (module: object, parts: Record<string, (value: unknown) => boolean>) =>
  Object.entries(parts)
    .filter(([part, ok]) => !(part in module) || !ok((module as Record<string, unknown>)[part]))
    .map(([part]) => part);

// Compiles SQL without a database (the PostgreSQL dialect's compiler; no connection is made).
const db = new Kysely<Record<string, never>>({ dialect: new PostgresDialect({ pool: {} as never }) });
const compile = (fragment: unknown) => (fragment as RawBuilder<unknown>).compile(db);
const SQL = sql as unknown as Sql;

describe('the field-type modules', () => {
  it('lists one common module and one client module for each type, each with every part', () => {
    expect(Object.keys(FIELD_TYPE_UIS).sort()).toEqual([...SCHEMA_FIELD_TYPES].sort());
    for (const type of SCHEMA_FIELD_TYPES) {
      const module = FIELD_TYPE_MODULES[type] as FieldTypeModule;
      expect(missingParts(module, COMMON_PARTS), `${type} (common)`).toEqual([]);
      expect(module.type, type).toBe(type);
      expect(missingParts(FIELD_TYPE_UIS[type], CLIENT_PARTS), `${type} (client)`).toEqual([]);
      expect(FIELD_TYPE_UIS[type].type, type).toBe(type);
    }
  });

  it('finds a module that lacks a part', () => {
    const { sort: _sort, words: _words, ...partial } = FIELD_TYPE_MODULES.text;
    expect(missingParts(partial, COMMON_PARTS)).toEqual(['sort', 'words']);
    const { history: _history, ...screens } = FIELD_TYPE_UIS.text;
    expect(missingParts(screens, CLIENT_PARTS)).toEqual(['history']);
  });

  it('offers only known validation options, refuses unknown options by name and holds a known kind', () => {
    const kinds = ['text', 'email', 'phone', 'url', 'color', 'integer', 'number', 'boolean', 'date', 'datetime'];
    for (const type of SCHEMA_FIELD_TYPES) {
      const module = FIELD_TYPE_MODULES[type] as FieldTypeModule;
      for (const option of module.validation({})) expect(VALIDATION_OPTIONS, type).toContain(option);
      const refused = module.options.safeParse({ no_such_option: 1 });
      expect(refused.success, type).toBe(false);
      expect(JSON.stringify(refused.error?.issues), type).toContain('no_such_option');
      expect([...kinds, 'enum', 'enum[]', 'integer[]', 'json'], type).toContain(module.kind({}, 'id'));
    }
  });

  it('writes each filter operator as parameterised SQL over a custom key and a column', () => {
    for (const type of SCHEMA_FIELD_TYPES) {
      const module = FIELD_TYPE_MODULES[type] as FieldTypeModule;
      const kind = module.kind({}, 'id');
      for (const storage of ['custom', 'column'] as const) {
        const spec = { kind, type, storage };
        for (const [name, operator] of Object.entries(module.filters)) {
          const value = operator.takes === 'list' ? ['1'] : operator.takes === 'flag' ? 'true' : '1';
          const compiled = compile(operator.sql({ sql: SQL, field: 'x', spec, value, alias: 't' }));
          expect(compiled.sql, `${type} ${name} ${storage}`).toMatch(/"t"\."(custom|x)"/);
          if (operator.takes !== 'flag' && !/false/.test(compiled.sql))
            expect(compiled.parameters.length, `${type} ${name} ${storage}: ${compiled.sql}`).toBeGreaterThan(0);
        }
        const key = module.sort?.key({ sql: SQL, field: 'x', spec, alias: 't' });
        if (key) expect(compile(key).sql, `${type} sort`).toContain('"t"');
      }
    }
  });
});
