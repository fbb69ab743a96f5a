/**
 * "Save as view" under an answer that counted or listed records: a saved view (/api/views) of the list the answer
 * was about (its record type and filters, named as the answer described it), the person's own; then a link to it.
 */

import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAppDataProvider } from '../records/hooks';
import type { AnswerList } from './api';

export function SaveViewButton({ list, onNavigate }: { list: AnswerList; onNavigate?: () => void }) {
  const dp = useAppDataProvider();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<{ name: string; url: string } | null>(null);
  const save = async () => {
    setBusy(true);
    try {
      const { data } = await dp.create('views', {
        data: { name: list.title.slice(0, 100), record_type: list.type, filters: list.filters },
      });
      setSaved({ name: String(data.name), url: String(data.url) });
      notify(`Saved as the view "${data.name}".`, { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ mt: 0.5 }} data-testid="assistant-save-view">
      {saved ? (
        <Link component={RouterLink} to={saved.url} onClick={onNavigate} variant="body2">
          Open the view “{saved.name}”
        </Link>
      ) : (
        <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => void save()} disabled={busy}>
          Save as view
        </Button>
      )}
    </Box>
  );
}
