import { type ImportRecordType, suggestTargets } from '../../common/import-targets.js';
import type { AppContext } from '../app-context.js';
import { createBatchValidator, reasonOf } from '../records/batch-writer.js';
import { withSetValues } from '../records/form-logic-outcome.js';
import { cleanHeaders, isBlankRecord } from './csv-reader.js';
import { customTargets } from './importer-service.js';
import { createMapper, type ImporterConfig, keyFieldOf, newRecordDefaults } from './mapper.js';
import { definitionFor } from './record-types.js';
import { relationNames } from './relation-names.js';
import type { UploadedFile } from './uploads.js';

/** Rows shown; of the first PREVIEW_RECORDS data records (uploads.ts), blank ones skipped. */
const PREVIEW_ROWS = 20;

/**
 * The first rows of a file as the importer would map them (at most 20 of at most 500 columns: small work, done here), with the errors they would produce as new records (the
 * importer's defaults filling empty values, as the import job does). Without an importer: the headers, suggested
 * targets and the raw rows. Nothing is written.
 */
export async function previewFile(
  ctx: AppContext,
  file: UploadedFile,
  importer: ImporterConfig | null,
  recordType: ImportRecordType,
) {
  const { records } = ctx;
  const type: ImportRecordType = importer?.record_type ?? recordType;
  const def = definitionFor(ctx.resources, type);
  const fields = await records.fields(def);
  let headers: string[] = [];
  const rows: any[] = [];
  let mapper: ReturnType<typeof createMapper> | null = null;
  const validate = createBatchValidator(fields, def.readOnly ?? []);
  const mappedRows: Array<{
    line: number;
    cells: string[];
    mapped: ReturnType<ReturnType<typeof createMapper>['map']>;
  }> = [];
  // The first records, parsed by the upload's worker thread while the file arrived (imports/uploads.ts).
  for (const record of file.head ?? []) {
    if (record.index === -1) {
      headers = cleanHeaders(record.cells);
      if (importer) mapper = createMapper(importer, headers, fields);
      continue;
    }
    if (isBlankRecord(record.cells)) continue;
    if (rows.length + mappedRows.length >= PREVIEW_ROWS) break;
    if (!mapper) rows.push({ line: record.line, cells: record.cells });
    else
      mappedRows.push({
        line: record.line,
        cells: record.cells,
        mapped: mapper.map(record.cells, record.line, record.index),
      });
  }
  // Relation columns that name their records are checked as the import does, by the names.
  const names = await relationNames(
    ctx.db,
    ctx.resources,
    fields,
    mappedRows.map((row) => row.mapped.values),
  );
  for (const { line, cells, mapped } of mappedRows) {
    const errors = [...mapped.errors];
    const candidate: Record<string, unknown> = { ...mapped.values };
    // A name that finds no record fails the row before its values are checked, as in the import.
    const unnamed = names.resolve(candidate);
    errors.push(...unnamed);
    for (const [field, fallback] of Object.entries(newRecordDefaults(importer, type))) {
      if ((candidate[field] === undefined || candidate[field] === '') && field in fields) candidate[field] = fallback;
    }
    if (!unnamed.length) {
      try {
        const logic = await records.formLogic(def, candidate);
        validate(withSetValues(candidate, logic, fields, def.readOnly), { mode: 'create', hidden: logic.hidden });
      } catch (error) {
        errors.push(reasonOf(error));
      }
    }
    rows.push({
      line,
      cells,
      values: mapped.values,
      related: {
        trades: mapped.trades,
        status: mapped.status ?? null,
        union: mapped.union ?? null,
        classification: mapped.classification ?? null,
        craft: mapped.craft ?? null,
        contractor: mapped.contractor ?? null,
        contacts: mapped.contacts,
      },
      errors,
    });
  }
  return {
    file: { name: file.name, size: file.size, encoding: file.encoding, lines: file.lines },
    headers,
    suggestions: suggestTargets(headers, type, customTargets(fields, type)),
    missing_columns: mapper?.missing ?? [],
    key_field: importer ? keyFieldOf(importer) : null,
    rows,
  };
}
