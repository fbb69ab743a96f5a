import { TARGETS_BY_KEY } from '../../common/import-targets.js';
import type { FieldSpec } from '../records/resource.js';

interface ImporterShape {
  record_type: string;
  key_target?: string | null;
  columns?: ReadonlyArray<{ header: string; target: string }>;
  protected_fields?: readonly string[] | null;
  defaults?: Record<string, unknown> | null;
}

/** The field a target fills when it names one of the record type's fields (`custom.gate_code`, `visit.outcome`). */
function fieldOfTarget(target: string, type: string): string | null {
  if (target.startsWith('custom.')) return target.slice(7);
  if (target.startsWith(`${type}.`)) return target.slice(type.length + 1);
  return null;
}

/**
 * Why an importer needs attention before it imports again: a column, its key, a default or a protected field names a
 * field its record type no longer has (deleted in the schema editor). Without this the import would leave that
 * column out without a word. `fields`: the record type's fields now; the catalogue's targets (`site.address`) are always known.
 */
export function importerProblems(importer: ImporterShape, fields: Record<string, FieldSpec>): string[] {
  const problems: string[] = [];
  const missing = (target: string) => {
    if (TARGETS_BY_KEY.has(target)) return null;
    const field = fieldOfTarget(target, importer.record_type);
    return field !== null && !(field in fields) ? field : null;
  };
  for (const column of importer.columns ?? []) {
    if (!column.target || column.target === 'ignore') continue;
    const field = missing(column.target);
    if (field)
      problems.push(
        `The column “${column.header}” goes to the field “${field}”, which ${importer.record_type} records no longer have: map it to another field or ignore it.`,
      );
  }
  const key = importer.key_target ? missing(importer.key_target) : null;
  if (key)
    problems.push(`The key “${key}” is not a field of ${importer.record_type} records any more: choose another key.`);
  for (const field of Object.keys(importer.defaults ?? {}))
    if (!(field in fields))
      problems.push(`The default for “${field}” names a field ${importer.record_type} records no longer have.`);
  for (const field of importer.protected_fields ?? [])
    if (!(field in fields))
      problems.push(`The protected field “${field}” is not a field of ${importer.record_type} records any more.`);
  return problems;
}
