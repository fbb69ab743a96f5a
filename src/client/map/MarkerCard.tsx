/**
 * The card of a marker (GET /api/map/marker-data): name, address, type, status, contractors, last activity,
 * and the actions to open the record on its page or in the side panel. A floating card on wide screens, a
 * bottom sheet on phones.
 */

import CloseIcon from '@mui/icons-material/Close';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import ViewSidebarIcon from '@mui/icons-material/ViewSidebar';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { RecordContextProvider } from 'react-admin';
import type { MarkerCard as Card } from '../../common/map-types';
import { SiteConversationLink } from '../conversations/SiteConversationLink';
import { FieldValue } from '../records/FieldValue';
import { useAppDataProvider, useLiveSchema, useVisibleDescriptors } from '../records/hooks';
import { DetailsTab } from '../records/show/DetailsTab';
import { LogVisitButton } from '../visits/LogVisitButton';
import { CONTRACTOR_COLORS, statusColor, textOn, typeColor } from './colors';

export interface MarkerCardProps {
  marker: { kind: 'site' | 'contractor'; id: number };
  /** Changes when the record may have changed (live updates): the card reloads. */
  version: number;
  typeColors: Record<string, string | null | undefined>;
  onClose: () => void;
  onOpen: (resource: string, id: number) => void;
  onOpenPanel: (resource: string, id: number, title: string) => void;
}

/** The record's fields made in the schema editor that hold a value, as the record's details show them (the one field display, form logic applied). */
function CustomFields({ card }: { card: Card }) {
  const schema = useLiveSchema(card.kind === 'site' ? 'sites' : 'contractors');
  const descriptors = useVisibleDescriptors(schema);
  const custom = useMemo(
    () => descriptors.filter((descriptor) => Object.hasOwn(card.custom ?? {}, descriptor.slug)),
    [descriptors, card.custom],
  );
  if (!schema || !custom.length) return null;
  return (
    <RecordContextProvider value={{ id: card.id, ...card.custom }}>
      <Box sx={{ mt: 1.5 }} data-testid="marker-card-fields">
        <DetailsTab schema={schema} descriptors={custom} compact />
      </Box>
    </RecordContextProvider>
  );
}

const when = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export function MarkerCard({ marker, version, typeColors, onClose, onOpen, onOpenPanel }: MarkerCardProps) {
  const dataProvider = useAppDataProvider();
  const [card, setCard] = useState<Card | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    dataProvider
      .mapCard(marker.kind, marker.id, controller.signal)
      .then((data) => setCard(data))
      .catch((e: { status?: number; message?: string; kind?: string }) => {
        if (controller.signal.aborted || e?.kind === 'cancelled') return;
        setCard(null);
        setError(
          e?.status === 404 ? 'This record is no longer on the map.' : (e?.message ?? 'The card could not be loaded.'),
        );
      });
    return () => controller.abort();
  }, [dataProvider, marker.kind, marker.id, version]);

  const loading = !card && !error;
  const shown = card && card.id === marker.id && card.kind === marker.kind ? card : null;
  const open = shown?.actions.find((a) => a.name === 'open');
  const panel = shown?.actions.find((a) => a.name === 'panel');
  const colour = shown
    ? shown.kind === 'site'
      ? typeColor(shown.type, typeColors)
      : (CONTRACTOR_COLORS[shown.type] ?? '#757575')
    : '#9e9e9e';

  return (
    <Paper
      elevation={6}
      role="dialog"
      aria-label={shown ? shown.name : 'Marker details'}
      data-testid="marker-card"
      sx={{
        position: 'absolute',
        zIndex: 1000,
        left: { xs: 0, sm: 16 },
        right: { xs: 0, sm: 'auto' },
        bottom: { xs: 0, sm: 24 },
        width: { xs: '100%', sm: 360 },
        maxHeight: { xs: '55%', sm: 'calc(100% - 120px)' },
        overflowY: 'auto',
        borderRadius: { xs: '12px 12px 0 0', sm: 2 },
        p: 2,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Box
          sx={{
            width: 14,
            height: 14,
            mt: 0.75,
            borderRadius: shown?.kind === 'contractor' ? 0.5 : '50%',
            bgcolor: colour,
            flexShrink: 0,
          }}
        />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
            {shown?.name ?? (loading ? 'Loading…' : 'Not available')}
          </Typography>
          {shown?.address && (
            <Typography variant="body2" color="text.secondary">
              {shown.address}
            </Typography>
          )}
        </Box>
        <IconButton size="small" onClick={onClose} aria-label="Close the card" edge="end">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {loading && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
          <CircularProgress size={24} />
        </Box>
      )}
      {error && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {shown && (
        <>
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
            <Chip
              size="small"
              label={
                <FieldValue resource={shown.kind === 'site' ? 'sites' : 'contractors'} field="type" record={shown} />
              }
              sx={{
                bgcolor: colour,
                color: textOn(colour),
                fontWeight: 600,
                '& .MuiChip-label *': { color: 'inherit' },
              }}
            />
            {shown.status && (
              <Chip
                size="small"
                variant="outlined"
                label={shown.status.name}
                sx={{
                  borderColor: statusColor(shown.status.id, { [shown.status.id]: shown.status.color }),
                  borderWidth: 2,
                }}
              />
            )}
            {shown.phase && <Chip size="small" variant="outlined" label={shown.phase.name} />}
            {shown.sites_count !== undefined && (
              <Chip
                size="small"
                variant="outlined"
                label={`${shown.sites_count} site${shown.sites_count === 1 ? '' : 's'}`}
              />
            )}
          </Stack>
          {shown.kind === 'site' && (
            <Box sx={{ mt: 1.5 }}>
              <Typography variant="overline" color="text.secondary">
                Contractors
              </Typography>
              {shown.contractors.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  None recorded
                </Typography>
              ) : (
                <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                  {shown.contractors.map((c) => (
                    <Typography component="li" variant="body2" key={c.id}>
                      {c.name}{' '}
                      <Box component="span" sx={{ color: 'text.secondary' }}>
                        (<FieldValue resource="contractors" field="type" record={c} />
                        {c.role === 'general' ? ', general contractor' : ''})
                      </Box>
                    </Typography>
                  ))}
                </Box>
              )}
            </Box>
          )}
          <CustomFields card={shown} />
          <Box sx={{ mt: 1.5 }}>
            <Typography variant="overline" color="text.secondary">
              Last activity
            </Typography>
            <Typography variant="body2" data-testid="marker-card-activity">
              {shown.last_activity
                ? `${when(shown.last_activity.at)}: ${shown.last_activity.summary}`
                : 'No activity yet'}
            </Typography>
          </Box>
          <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
            {shown.kind === 'site' && <LogVisitButton siteId={shown.id} size="small" />}
            {shown.kind === 'site' && <SiteConversationLink siteId={shown.id} size="small" />}
            {open && (
              <Button
                variant="contained"
                size="small"
                startIcon={<OpenInNewIcon />}
                onClick={() => onOpen(open.resource, open.id)}
              >
                {open.label}
              </Button>
            )}
            {panel && (
              <Button
                variant="outlined"
                size="small"
                startIcon={<ViewSidebarIcon />}
                onClick={() => onOpenPanel(panel.resource, panel.id, shown.name)}
              >
                {panel.label}
              </Button>
            )}
          </Stack>
        </>
      )}
    </Paper>
  );
}
