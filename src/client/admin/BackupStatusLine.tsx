/** The last backup's time and result, on the system screen (the users list) of an administrator (GET /api/system/status). */

import { Alert } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useCanAccess } from 'react-admin';
import type { SystemStatus } from '../../common/system-status';
import { formatDateTime } from '../i18n/dates';
import { useAppDataProvider } from '../records/hooks';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** What the line says: plain words for the last run, and when the next is due. */
export function backupLine({ last, schedule, next_at }: SystemStatus['backup']): {
  severity: 'success' | 'info' | 'warning' | 'error';
  text: string;
} {
  const next = next_at
    ? ` Next scheduled backup: ${formatDateTime(next_at)}.`
    : ' No backup is scheduled (BACKUP_CRON).';
  if (!last) return { severity: schedule ? 'info' : 'warning', text: `No backup has been made yet.${next}` };
  if (last.status === 'running')
    return { severity: 'info', text: `A backup is being made (started ${formatDateTime(last.started_at)}).${next}` };
  if (last.status === 'failed')
    return {
      severity: 'error',
      text: `The last backup failed at ${formatDateTime(last.finished_at ?? last.started_at)}: ${last.message ?? 'no reason given'}.${next}`,
    };
  const size = last.size_bytes === null ? '' : `, ${megabytes(last.size_bytes)}`;
  const files = last.file_count === null ? '' : `, ${last.file_count} files`;
  return {
    severity: 'success',
    text: `Last backup: ${formatDateTime(last.finished_at ?? last.started_at)} (${last.file ?? 'archive'}${size}${files}).${next}`,
  };
}

export function BackupStatusLine() {
  const { canAccess: isAdministrator = false } = useCanAccess({ resource: 'features', action: 'update' });
  const dp = useAppDataProvider();
  const status = useQuery({
    queryKey: ['system-status'],
    queryFn: () => dp.systemStatus(),
    enabled: isAdministrator,
  });
  if (!isAdministrator || !status.data) return null;
  const { severity, text } = backupLine(status.data.backup);
  return (
    <Alert severity={severity} sx={{ mb: 1 }} data-testid="backup-status">
      {text}
    </Alert>
  );
}
