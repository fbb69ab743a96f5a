/**
 * A record shown in the shell's side panel from the map: its fields as label and value, and a link to its page.
 * Lists of ids and internal columns are left out; the full page has everything.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { fetchRecord } from './api';

const SKIP = new Set(['id', 'custom', 'deleted_at', 'latitude', 'longitude', 'import_id', 'attachments', 'contractors']);

function label(key: string) {
  const text = key.replace(/_id$/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function display(key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value) || typeof value === 'object') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if ((key.endsWith('_at') || key.endsWith('_date')) && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    return new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  }
  return String(value);
}

export function RecordPanel({ resource, id, onOpen, labels = {} }: { resource: string; id: number; onOpen: () => void; labels?: Record<string, string> }) {
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setRecord(null);
    setError(null);
    fetchRecord(resource, id)
      .then((data) => live && setRecord(data))
      .catch((e: { message?: string }) => live && setError(e?.message ?? 'The record could not be loaded.'));
    return () => {
      live = false;
    };
  }, [resource, id]);

  if (error) return <Alert severity="warning">{error}</Alert>;
  if (!record) return <CircularProgress size={24} />;
  const rows = Object.entries(record)
    .filter(([key]) => !SKIP.has(key) && !key.endsWith('_ids') && !key.endsWith('_id'))
    .map(([key, value]) => [key, key === 'type' && typeof value === 'string' ? (labels[value] ?? value) : display(key, value)] as const)
    .filter(([, value]) => value !== null);
  return (
    <Box data-testid="map-record-panel">
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(110px, 40%) 1fr', columnGap: 2, rowGap: 1 }}>
        {rows.map(([key, value]) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label(key)}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Button sx={{ mt: 2 }} variant="contained" onClick={onOpen}>
        Open the full page
      </Button>
    </Box>
  );
}
