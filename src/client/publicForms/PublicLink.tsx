/** A form's public address with a button that copies it. */
import CopyIcon from '@mui/icons-material/ContentCopy';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useNotify } from 'react-admin';
import { publicLink } from './api';

export function PublicLink({ slug }: { slug: string }) {
  const notify = useNotify();
  const url = publicLink(slug);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify('Link copied.', { type: 'info' });
    } catch {
      notify(`Copy failed: select the link and copy it (${url}).`, { type: 'warning' });
    }
  };
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Link href={url} target="_blank" rel="noopener" sx={{ overflowWrap: 'anywhere' }}>
        /f/{slug}
      </Link>
      <Tooltip title="Copy the link">
        <IconButton size="small" aria-label={`Copy the link to /f/${slug}`} onClick={() => void copy()}>
          <CopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
