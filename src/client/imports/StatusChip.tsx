import Chip from '@mui/material/Chip';

const COLORS = { pending: 'default', processing: 'info', complete: 'success', failed: 'error' } as const;
const LABELS = { pending: 'Pending', processing: 'Processing', complete: 'Complete', failed: 'Failed' } as const;

/** An import's status (SPEC section 3: pending, processing, complete, failed); "Undone" once undone. */
export function StatusChip({ status, undone }: { status?: string; undone?: boolean }) {
  if (undone) return <Chip size="small" label="Undone" variant="outlined" />;
  const key = (status ?? 'pending') as keyof typeof COLORS;
  return (
    <Chip
      size="small"
      label={LABELS[key] ?? status}
      color={COLORS[key] ?? 'default'}
      variant={key === 'pending' ? 'outlined' : 'filled'}
    />
  );
}
