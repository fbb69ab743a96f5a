import { describe, expect, it } from 'vitest';
import { backupLine } from '../../../src/client/admin/BackupStatusLine';
import type { BackupRun } from '../../../src/common/system-status';

const run = (fields: Partial<BackupRun>): BackupRun => ({
  id: 1,
  trigger: 'schedule',
  status: 'succeeded',
  started_at: '2026-11-29T02:30:00.000Z',
  finished_at: '2026-11-29T02:30:12.000Z',
  file: 'organizing-map-backup-2026-11-29T02-30-00Z.tar.gz',
  size_bytes: 9_437_184,
  file_count: 4,
  message: null,
  ...fields,
});

describe("the administrator's backup line", () => {
  it('names the last backup, its size and files, and the next time', () => {
    const line = backupLine({ last: run({}), schedule: '30 2 * * *', keep: 7, next_at: '2026-11-30T02:30:00.000Z' });
    expect(line.severity).toBe('success');
    expect(line.text).toMatch(
      /^Last backup: .+ \(organizing-map-backup-2026-11-29T02-30-00Z\.tar\.gz, 9\.0 MB, 4 files\)\./,
    );
    expect(line.text).toContain('Next scheduled backup:');
  });

  it('says why the last one failed, and that none is scheduled', () => {
    const line = backupLine({
      last: run({ status: 'failed', message: 'pg_dump is not installed' }),
      schedule: null,
      keep: 7,
      next_at: null,
    });
    expect(line.severity).toBe('error');
    expect(line.text).toContain('failed at');
    expect(line.text).toContain('pg_dump is not installed');
    expect(line.text).toContain('No backup is scheduled (BACKUP_CRON).');
  });

  it('warns when no backup was ever made and none is scheduled', () => {
    expect(backupLine({ last: null, schedule: null, keep: 7, next_at: null })).toMatchObject({
      severity: 'warning',
      text: expect.stringContaining('No backup has been made yet.'),
    });
  });
});
