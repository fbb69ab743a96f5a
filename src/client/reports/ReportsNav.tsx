import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

const REPORTS: ReadonlyArray<[string, string]> = [
  ['/reports/market-share', 'Market share'],
  ['/reports/classifications', 'Classifications'],
  ['/reports/task-performance', 'Task performance'],
  ['/reports/user-performance', 'User performance'],
];

/** Links between the reports (they have one sidebar entry, the market share). */
export function ReportsNav() {
  const here = typeof window !== 'undefined' ? window.location.pathname : '';
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }} component="nav" aria-label="Reports">
      {REPORTS.map(([path, label]) => (
        <Button key={path} component={RouterLink} to={path} size="small" variant={here === path ? 'contained' : 'text'} disableElevation>
          {label}
        </Button>
      ))}
    </Stack>
  );
}
