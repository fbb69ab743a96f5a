/** GET /api/system/status (administrators): what the server and the administrator's system screen share. */

/** A backup, as the last one is shown (`backup.last`). */
export interface BackupRun {
  id: number;
  trigger: 'schedule' | 'manual';
  status: 'running' | 'succeeded' | 'failed';
  started_at: string;
  finished_at: string | null;
  /** The archive's name (not its folder). */
  file: string | null;
  size_bytes: number | null;
  file_count: number | null;
  /** Why it failed. */
  message: string | null;
}

export interface SystemStatus {
  database: 'pglite' | 'postgres';
  files: 'folder' | 's3';
  backup: {
    last: BackupRun | null;
    /** BACKUP_CRON, or null: no scheduled backups. */
    schedule: string | null;
    keep: number;
    next_at: string | null;
  };
}
