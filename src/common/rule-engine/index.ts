/**
 * The one rule engine: rules compile to JSON Logic and run on json-logic-js, on both sides (docs/architecture.md,
 * "Where to add a rule operator"). Form logic (src/common/form-logic) and importer rules (src/common/import-rules.ts)
 * are its two users.
 */
export * from './engine.js';
export * from './form-operators.js';
export * from './import-operators.js';
