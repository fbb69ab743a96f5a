/** Small shared pieces of the record screens: the page header, loading and error states. */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadingScreen } from '../layout/LoadingScreen';

export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 2 }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h1" component="h1" sx={{ fontSize: { xs: '1.35rem', sm: '1.6rem' }, overflowWrap: 'anywhere' }} data-testid="page-heading">
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary" component="div">
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions && (
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}

export function PageLoading() {
  return <LoadingScreen fullHeight={false} />;
}

export function LoadFailed({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'The record could not be loaded.';
  return (
    <Alert severity="error" sx={{ maxWidth: 720 }}>
      {message}
    </Alert>
  );
}

export function MissingSchema({ resource }: { resource: string }) {
  return (
    <Alert severity="info" sx={{ maxWidth: 720 }}>
      The record type of “{resource}” is not available. It may have been removed, or you may not be allowed to see it.
    </Alert>
  );
}

/** Shown instead of a record type's screens while its feature is switched off. */
export function FeatureOff({ name }: { name: string }) {
  return (
    <Alert severity="info" sx={{ maxWidth: 720 }}>
      {name} are switched off. An administrator can switch them on under Features.
    </Alert>
  );
}
