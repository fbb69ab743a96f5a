import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { type CallList, peopleCount } from './types';

/** "12 of 40 contacts called · 2 being called now", with a bar. */
export function CallListProgressBar({ list }: { list: CallList }) {
  const { total, done, calling } = list.progress;
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {done.toLocaleString('en-US')} of {peopleCount(total, list.person_type)} called
        {calling ? ` · ${calling.toLocaleString('en-US')} being called now` : ''}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={`${list.name}: ${percent}% called`}
        sx={{ mt: 0.5, height: 8, borderRadius: 1 }}
      />
    </Box>
  );
}
