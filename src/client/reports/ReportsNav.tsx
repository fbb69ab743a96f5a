import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router-dom';

import { useMainData, useSession } from '../app/hooks';
import { readableReports } from './catalogue';

/** Links between the reports the person may open (the same list as the sidebar's Reports group). */
export function ReportsNav() {
  const here = typeof window !== 'undefined' ? window.location.pathname : '';
  const { user } = useSession();
  const { features } = useMainData();
  const REPORTS = readableReports(user, features).map((report) => [report.path, report.label] as const);
  if (REPORTS.length === 0) return null;
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }} component="nav" aria-label="Reports">
      {REPORTS.map(([path, label]) => (
        <Button
          key={path}
          component={RouterLink}
          to={path}
          size="small"
          variant={here === path ? 'contained' : 'text'}
          disableElevation
        >
          {label}
        </Button>
      ))}
    </Stack>
  );
}
