import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** The spinner shown until the main data is ready (SPEC section 2, layouts). */
export function LoadingScreen({ fullHeight = true }: { fullHeight?: boolean }) {
  return (
    <Box
      data-testid="loading"
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: fullHeight ? '100vh' : 240,
        width: '100%',
      }}
    >
      <CircularProgress />
    </Box>
  );
}

export default LoadingScreen;
