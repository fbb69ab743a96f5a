/**
 * A running import's progress, the same in the list and on its page: a determinate bar from the moment the job is
 * queued (0 % while it waits), the rows done of about how many, and the rate once rows have been written.
 */
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ImportRecord } from '../providers/importMethods';

/** Rows per second since the job started; null before it has written a row. */
export function importRate(
  record: Pick<ImportRecord, 'processed_rows' | 'started_at'>,
  now = Date.now(),
): number | null {
  if (!record.started_at || record.processed_rows <= 0) return null;
  const seconds = (now - new Date(record.started_at).getTime()) / 1000;
  return seconds > 0 ? record.processed_rows / seconds : null;
}

export function progressText(
  record: Pick<ImportRecord, 'status' | 'processed_rows' | 'total_rows' | 'progress' | 'started_at'>,
  now = Date.now(),
): string {
  const total = record.total_rows ?? 0;
  const done = `${record.processed_rows.toLocaleString('en')} of about ${total.toLocaleString('en')} rows (${record.progress}%)`;
  if (record.status === 'pending') return `${done}, waiting for the worker`;
  const rate = importRate(record, now);
  return rate === null ? done : `${done}, ${Math.round(rate).toLocaleString('en')} rows a second`;
}

export function ImportProgress({ record, compact = false }: { record: ImportRecord; compact?: boolean }) {
  return (
    <Box sx={compact ? { minWidth: 160 } : { mt: 2 }} aria-live={compact ? undefined : 'polite'}>
      <LinearProgress
        variant="determinate"
        value={record.progress}
        aria-label={`Progress ${record.progress}%`}
        sx={compact ? undefined : { height: 8, borderRadius: 4 }}
      />
      <Typography
        variant={compact ? 'caption' : 'body2'}
        sx={compact ? undefined : { mt: 0.5 }}
        data-testid="import-progress"
      >
        {progressText(record)}
      </Typography>
    </Box>
  );
}
