import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Component, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { type ChunkLoadError, isChunkLoadError } from './chunks';

interface Props {
  children: ReactNode;
  onRetry: () => void;
}

interface State {
  error: unknown;
}

/** Catches a route chunk that failed to load and offers Retry; any other error goes to the outer boundary. */
export class ChunkErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error) {
      if (!isChunkLoadError(error)) throw error;
      return <ChunkFailed error={error} onRetry={this.props.onRetry} />;
    }
    return this.props.children;
  }
}

function ChunkFailed({ error, onRetry }: { error: ChunkLoadError; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
      <Alert
        severity="error"
        role="alert"
        sx={{ maxWidth: 640, width: '100%' }}
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('app.chunk.retry')}
          </Button>
        }
      >
        <AlertTitle>{translate('app.chunk.title')}</AlertTitle>
        {translate('app.chunk.failed', { name: error.chunk, type: error.type, address: error.address })}
      </Alert>
    </Box>
  );
}
