/**
 * The note on a record that is one's own but outside one's turf (the server marks it `outside_turf`: the role reads it
 * by the "own" part of its rule, not by the turf), so a turf-scoped organizer knows why it is there.
 */
import Chip from '@mui/material/Chip';

export function OutsideTurfNote({ record }: { record: { outside_turf?: unknown } | undefined }) {
  if (!record?.outside_turf) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      label="outside your turf"
      data-testid="outside-turf"
      title="Yours (you created it or are assigned to it), outside the turf you are given"
      sx={{ ml: 1, height: 20, fontSize: '0.75rem' }}
    />
  );
}
