/** The data provider's import methods (docs/imports.md): a preview of a file's first rows, and starting an import. */
import type { HttpClient } from '../http/client';

export interface ImportRecord {
  id: number;
  name: string;
  status: 'pending' | 'processing' | 'complete' | 'failed';
  record_type: string;
  importer_id: number | null;
  importer_name: string | null;
  user_name?: string | null;
  /** `kept`: false once the server removed the file itself (UPLOAD_RETENTION_DAYS). */
  files: Array<{ name: string; size: number; encoding: string; kept?: boolean }>;
  total_rows: number | null;
  processed_rows: number;
  created_count: number;
  updated_count: number;
  skipped_count: number;
  failed_count: number;
  progress: number;
  message: string | null;
  undo_status: string | null;
  undone_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
}

export interface PreviewRow {
  line: number;
  cells: string[];
  values?: Record<string, unknown>;
  related?: {
    trades: string[];
    status: string | null;
    union: string | null;
    classification: string | null;
    craft: string | null;
    contractor: Record<string, unknown> | null;
    contacts: Array<Record<string, string>>;
  };
  errors?: string[];
}

export interface Preview {
  file: { name: string; size: number; encoding: string; lines: number };
  headers: string[];
  suggestions: string[];
  missing_columns: string[];
  key_field: string | null;
  rows: PreviewRow[];
  /** An .xlsx workbook's sheets, and the one previewed. */
  sheets?: string[];
  sheet?: string;
}

/** A line of an import's files that was not imported, and why. */
export interface ImportFailure {
  id: number;
  file_name: string;
  line: number;
  reason: string;
  cells: string[];
}

interface Page<T> {
  data: T[];
  meta: { total: number; last_page: number };
}

const isWorkbook = (file: File) => file.name.toLowerCase().endsWith('.xlsx');

/** The first part of a file is enough for a preview (the server reads 20 rows); 256 KB cut at the last line break. */
async function previewSlice(file: File): Promise<Blob> {
  // A workbook is a zip, read from its end: it goes whole.
  if (file.size <= 256 * 1024 || isWorkbook(file)) return file;
  const head = file.slice(0, 256 * 1024);
  const bytes = new Uint8Array(await head.arrayBuffer());
  const last = bytes.lastIndexOf(10);
  return last > 0 ? head.slice(0, last + 1) : head;
}

export function importMethods(http: HttpClient) {
  return {
    async previewImport(file: File, fields: Record<string, string>): Promise<Preview> {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append('files[]', await previewSlice(file), file.name);
      return (await http.post<{ data: Preview }>('/api/imports/preview', form)).data.data;
    },

    async startImport(files: File[], importerId: number | string, sheet = '') {
      const form = new FormData();
      form.append('importer_id', String(importerId));
      // The sheet of a workbook, chosen in the preview (before the files: the server reads it first).
      if (sheet) form.append('sheet', sheet);
      for (const file of files) form.append('files[]', file, file.name);
      return (await http.post<{ data: ImportRecord; message: string }>('/api/imports', form)).data;
    },

    /** What importers may fill, by record type, with the operators and actions their rules offer. */
    async importTargets<T>() {
      return (await http.get<T>('/api/importers/targets')).data;
    },

    /** One page (25 lines) of what an import could not take. */
    async importFailures(id: number | string, page: number) {
      const path = `/api/imports/${encodeURIComponent(String(id))}/failures`;
      return (await http.get<Page<ImportFailure>>(path, { query: { page, per_page: 25 } })).data;
    },

    /** One page (10) of the records an import made or changed. */
    async importedRecords(id: number | string, page: number) {
      const path = `/api/imports/${encodeURIComponent(String(id))}/records`;
      type Item = { id: number; resource: string; name: string; created: boolean; deleted: boolean };
      return (await http.get<Page<Item>>(path, { query: { page, per_page: 10 } })).data;
    },
  };
}

export type ImportMethods = ReturnType<typeof importMethods>;
