/**
 * For administrators (region:create): draw a turf on the map. "Draw a turf" starts the polygon tool; each tap adds a
 * corner and a tap on the first corner closes the shape. The dialog then says how many sites the shape holds (the
 * server counts the sites inside it) before anything is saved, and for the people and team picked, whether the turf
 * scopes each and how many sites they will see (TurfOutlookList); it saves it, named, as a region assigned to people
 * and a team: their turf (docs/map.md).
 */

import DrawIcon from '@mui/icons-material/Draw';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useCanAccess } from 'react-admin';
import type { TurfOutlook } from '../../common/access-rules';
import { useAppDataProvider } from '../records/hooks';
import { polygonTool } from './drawing';
import { TurfOutlookList } from './TurfOutlookList';

type Option = { id: number; name: string };
type Tool = Awaited<ReturnType<typeof polygonTool>>;

const messageOf = (error: unknown, fallback: string) => {
  const e = error as { body?: { errors?: Record<string, string | string[]> }; message?: string };
  const first = Object.values(e.body?.errors ?? {})[0];
  return (Array.isArray(first) ? first[0] : first) ?? e.message ?? fallback;
};

export function TurfDraw({ map, onSaved }: { map: L.Map | null; onSaved?: () => void }) {
  const { canAccess } = useCanAccess({ resource: 'regions', action: 'create' });
  const dataProvider = useAppDataProvider();
  const tool = useRef<Tool | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [shape, setShape] = useState<{ geometry: GeoJSON.Polygon; layer: L.Layer } | null>(null);
  const [count, setCount] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [people, setPeople] = useState<Option[]>([]);
  const [team, setTeam] = useState<Option | null>(null);
  const [userOptions, setUserOptions] = useState<Option[]>([]);
  const [teamOptions, setTeamOptions] = useState<Option[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outlook, setOutlook] = useState<TurfOutlook[] | null>(null);
  const [outlookLoading, setOutlookLoading] = useState(false);

  useEffect(() => () => tool.current?.stop(), []);

  // Who the turf will scope and how many sites each will see, asked again as people and the team are picked.
  const geometry = shape?.geometry;
  const userIds = people.map((p) => p.id).join(',');
  const teamId = team?.id ?? null;
  useEffect(() => {
    if (!geometry || (!userIds && !teamId)) {
      setOutlook(null);
      return;
    }
    let current = true;
    setOutlookLoading(true);
    dataProvider
      .previewShape(geometry, { user_ids: userIds ? userIds.split(',').map(Number) : [], team_id: teamId })
      .then((preview) => current && setOutlook(preview.people))
      .catch((e) => current && setError(messageOf(e, 'What the turf does for each person could not be worked out.')))
      .finally(() => current && setOutlookLoading(false));
    return () => {
      current = false;
    };
  }, [dataProvider, geometry, userIds, teamId]);

  if (!canAccess || !map) return null;

  const start = async () => {
    setSaved(null);
    setError(null);
    try {
      tool.current ??= await polygonTool(map);
    } catch {
      setError('The drawing tool could not be loaded.');
      return;
    }
    setDrawing(true);
    tool.current.start(async (geometry, layer) => {
      setDrawing(false);
      setShape({ geometry, layer });
      setCount(null);
      const [users, teams] = await Promise.all([
        dataProvider.options('users', { q: '' }).catch(() => []),
        dataProvider.options('teams', { q: '' }).catch(() => []),
      ]);
      setUserOptions(users);
      setTeamOptions(teams);
      try {
        setCount((await dataProvider.previewShape(geometry)).sites);
      } catch (e) {
        setError(messageOf(e, 'The sites inside could not be counted.'));
      }
    });
  };

  const cancelDrawing = () => {
    tool.current?.stop();
    setDrawing(false);
  };

  const close = () => {
    if (busy) return;
    if (shape) map.removeLayer(shape.layer);
    setShape(null);
    setName('');
    setPeople([]);
    setTeam(null);
    setError(null);
  };

  const save = async () => {
    if (!shape) return;
    setBusy(true);
    setError(null);
    try {
      const result = await dataProvider.saveTurf({
        name: name.trim(),
        geometry: shape.geometry,
        user_ids: people.map((p) => p.id),
        team_id: team?.id ?? null,
      });
      map.removeLayer(shape.layer);
      setShape(null);
      setName('');
      setPeople([]);
      setTeam(null);
      setSaved(`${result.data.name} saved: ${count ?? 0} ${count === 1 ? 'site' : 'sites'} inside.`);
      // The regions layer reads its outlines again now, not on the next move of the map.
      onSaved?.();
    } catch (e) {
      setError(messageOf(e, 'The turf could not be saved.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Paper
        elevation={2}
        sx={{
          position: 'absolute',
          zIndex: 1000,
          left: 12,
          bottom: { xs: 88, sm: 24 },
          p: 0.5,
          maxWidth: 'calc(100% - 80px)',
        }}
      >
        {drawing ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1 }}>
            <Typography variant="body2" role="status">
              Tap the map to add corners; tap the first corner to finish.
            </Typography>
            <Button size="small" onClick={cancelDrawing}>
              Cancel
            </Button>
          </Stack>
        ) : (
          <Button size="small" startIcon={<DrawIcon />} onClick={start} data-testid="draw-turf">
            Draw a turf
          </Button>
        )}
      </Paper>
      {saved && (
        <Alert
          severity="success"
          role="status"
          onClose={() => setSaved(null)}
          sx={{ position: 'absolute', zIndex: 1001, left: 12, right: 12, top: 64, maxWidth: 480 }}
        >
          {saved}
        </Alert>
      )}
      <Dialog open={Boolean(shape)} onClose={close} aria-labelledby="turf-dialog-title" fullWidth maxWidth="xs">
        <DialogTitle id="turf-dialog-title">Save this turf</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }} data-testid="turf-count" role="status">
            {count === null
              ? 'Counting the sites inside…'
              : `${count.toLocaleString('en')} ${count === 1 ? 'site' : 'sites'} inside`}
          </Typography>
          <Stack spacing={2}>
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              fullWidth
              autoFocus
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <Autocomplete
              multiple
              options={userOptions}
              value={people}
              onChange={(_, value) => setPeople(value)}
              onInputChange={(_, text) =>
                void dataProvider.options('users', { q: text }).then(setUserOptions, () => undefined)
              }
              filterOptions={(options) => options}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => <TextField {...params} label="Assigned to people" />}
            />
            <Autocomplete
              options={teamOptions}
              value={team}
              onChange={(_, value) => setTeam(value)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => <TextField {...params} label="Assigned to a team" />}
            />
          </Stack>
          <TurfOutlookList people={outlook} loading={outlookLoading} />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Discard
          </Button>
          <Button variant="contained" onClick={save} disabled={busy || !name.trim()}>
            Save turf
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
