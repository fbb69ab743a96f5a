/**
 * `/offline-sites`: the sites kept on this device for work with no connection (offline/siteCache.ts: the sites the
 * person may read, their turf when their role limits them to it), searchable, each with "Log a visit" and its page.
 */

import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../i18n/dates';
import { PageHeader } from '../layout/PageHeader';
import { LogVisitButton } from '../visits/LogVisitButton';
import type { CachedSites } from './database';
import { offline } from './runtime';
import { SITE_LIMIT } from './siteCache';
import { useOffline } from './useOffline';

const SHOWN = 100;

const place = (site: Record<string, any>) => [site.street, site.city, site.state].filter(Boolean).join(', ');

export default function OfflineSitesPage() {
  const { online } = useOffline();
  const [kept, setKept] = useState<CachedSites | null | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  const userId = offline.signedInUserId;

  const load = async (refresh: boolean) => {
    if (userId === null) return;
    if (refresh) {
      setBusy(true);
      await offline.refreshSites(true);
      setBusy(false);
    }
    setKept(await offline.sites.read(userId));
  };
  useEffect(() => {
    void load(online);
  }, [userId]);

  const found = useMemo(() => {
    const words = search.trim().toLowerCase();
    const sites = kept?.sites ?? [];
    return words ? sites.filter((site) => `${site.name ?? ''} ${place(site)}`.toLowerCase().includes(words)) : sites;
  }, [kept, search]);

  return (
    <Stack spacing={2} sx={{ maxWidth: 760 }}>
      <Title title="Sites on this device" />
      <PageHeader
        title="Sites on this device"
        subtitle={
          kept
            ? `${kept.sites.length} site${kept.sites.length === 1 ? '' : 's'} you can work on with no connection, saved ${formatDateTime(new Date(kept.savedAt).toISOString())}.`
            : kept === null
              ? 'No sites saved on this device yet.'
              : undefined
        }
        actions={
          online && (
            <Button onClick={() => void load(true)} disabled={busy}>
              {busy ? 'Saving…' : 'Save again now'}
            </Button>
          )
        }
      />
      {kept && kept.sites.length >= SITE_LIMIT && (
        <Typography variant="body2" color="text.secondary">
          The first {SITE_LIMIT} sites by name are kept.
        </Typography>
      )}
      <TextField
        label="Find a site"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        size="small"
        type="search"
      />
      <Card variant="outlined">
        <List aria-label="Sites on this device" data-testid="offline-sites">
          {found.slice(0, SHOWN).map((site) => (
            <ListItem key={String(site.id)} divider sx={{ flexWrap: 'wrap', gap: 1 }} data-testid="offline-site">
              <ListItemText
                primary={String(site.name ?? `Site #${site.id}`)}
                secondary={place(site) || undefined}
                sx={{ flex: '1 1 200px' }}
              />
              <Button component={RouterLink} to={`/sites/${site.id}/show`}>
                Open
              </Button>
              <LogVisitButton siteId={Number(site.id)} />
            </ListItem>
          ))}
          {kept && found.length === 0 && (
            <ListItem>
              <ListItemText primary="No site matches." />
            </ListItem>
          )}
        </List>
      </Card>
      {found.length > SHOWN && (
        <Typography variant="body2" color="text.secondary">
          {found.length - SHOWN} more: narrow the search.
        </Typography>
      )}
    </Stack>
  );
}
