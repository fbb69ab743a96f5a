import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { Query } from '../http/query';
import { COLORS, describe, type FeedEntry, initials, timeAgo, VERBS } from './feed';
import { useFeed } from './useFeed';

const number = new Intl.NumberFormat('en-US');

/** One entry of the feed; a bulk change opens to list what it wrote (with the page's filters). */
export function FeedItem({ entry, now, query }: { entry: FeedEntry; now: number; query: Query }) {
  const [open, setOpen] = useState(false);
  const linked = entry.link && !entry.record_deleted;
  return (
    <Box
      component="li"
      data-testid="feed-entry"
      sx={{
        display: 'flex',
        gap: 1.5,
        px: 2,
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
        '&:last-child': { borderBottom: 0 },
      }}
    >
      <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.light' }}>
        {initials(entry.user?.name)}
      </Avatar>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {linked ? (
            <Link component={RouterLink} to={entry.link!} underline="hover" color="inherit">
              {describe(entry)}
            </Link>
          ) : (
            describe(entry)
          )}
        </Typography>
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
          <Chip
            size="small"
            variant="outlined"
            color={COLORS[entry.kind] ?? 'default'}
            label={entry.group?.undo ? 'undone' : VERBS[entry.kind]}
          />
          {entry.parent && entry.kind !== 'note-added' && entry.parent.link && (
            <Link component={RouterLink} to={entry.parent.link} variant="caption">
              on {entry.parent.label}
            </Link>
          )}
          <Typography variant="caption" color="text.secondary" title={new Date(entry.created_at).toLocaleString()}>
            {timeAgo(entry.created_at, now)}
          </Typography>
          {entry.group && (
            <Button
              size="small"
              onClick={() => setOpen((was) => !was)}
              endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
              aria-expanded={open}
              data-testid="feed-group-toggle"
              sx={{ py: 0, minWidth: 0 }}
            >
              {open ? 'Hide' : `Show ${entry.group.count === 1 ? 'it' : `all ${number.format(entry.group.count)}`}`}
            </Button>
          )}
        </Stack>
        {entry.group && open && <BatchEntries batch={entry.group.key} now={now} query={query} />}
      </Box>
    </Box>
  );
}

/** The revisions of one bulk change, newest first, thirty at a time. */
function BatchEntries({ batch, now, query }: { batch: string; now: number; query: Query }) {
  const feed = useFeed({ ...query, batch });
  return (
    <Box sx={{ mt: 1, borderLeft: 2, borderColor: 'divider' }}>
      {!feed.loaded && !feed.error && (
        <Typography variant="caption" color="text.secondary" sx={{ pl: 2 }}>
          Loading…
        </Typography>
      )}
      {feed.error && (
        <Typography variant="caption" color="error" sx={{ pl: 2 }}>
          These changes could not be loaded.
        </Typography>
      )}
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="feed-group-entries">
        {feed.entries.map((entry) => (
          <FeedItem key={entry.id} entry={entry} now={now} query={query} />
        ))}
      </Box>
      {feed.hasMore && (
        <Button size="small" sx={{ ml: 2 }} onClick={() => void feed.showOlder()} disabled={feed.loadingOlder}>
          Show more
        </Button>
      )}
    </Box>
  );
}
