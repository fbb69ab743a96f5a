/**
 * For administrators (region:create): upload a GeoJSON file of region shapes from the map's layers menu. The
 * button opens a dialog where the person says what the file's shapes are (postal codes, counties, states) and picks
 * the file: that choice is about the upload only, so it lives in the dialog, not among the map's view settings. The
 * server refuses a bad file whole and says why; the regions then redraw by themselves (the upload publishes a
 * region event).
 */

import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useRef, useState } from 'react';
import { useAppDataProvider } from '../records/hooks';

export function RegionUpload() {
  const dataProvider = useAppDataProvider();
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [type, setType] = useState('postal-code');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const upload = async (file: File) => {
    setBusy(true);
    setResult(null);
    try {
      setResult({ ok: true, text: await dataProvider.uploadRegions(type, file) });
    } catch (error) {
      // 422 bodies arrive flattened to one message per field.
      const e = error as { body?: { errors?: Record<string, string | string[]> }; message?: string };
      const file = e.body?.errors?.file;
      setResult({
        ok: false,
        text: (Array.isArray(file) ? file[0] : file) ?? e.message ?? 'The file could not be uploaded.',
      });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const close = () => {
    if (busy) return;
    setOpen(false);
    setResult(null);
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        onClick={() => setOpen(true)}
        sx={{ mt: 1 }}
        fullWidth
      >
        Upload region shapes…
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="region-upload-title" fullWidth maxWidth="xs">
        <DialogTitle id="region-upload-title">Upload region shapes</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            A GeoJSON file of polygons, each with a name or a code. A region already there with the same one is updated,
            and the sites are placed in the new shapes.
          </DialogContentText>
          <TextField
            select
            size="small"
            label="The file's shapes are"
            value={type}
            onChange={(e) => setType(e.target.value)}
            fullWidth
            disabled={busy}
          >
            <MenuItem value="postal-code">Postal codes</MenuItem>
            <MenuItem value="county">Counties</MenuItem>
            <MenuItem value="state">States</MenuItem>
          </TextField>
          {result && (
            <Alert severity={result.ok ? 'success' : 'error'} sx={{ mt: 2 }} role="status">
              {result.text}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {result?.ok ? 'Done' : 'Cancel'}
          </Button>
          <Button component="label" variant="contained" startIcon={<UploadFileIcon />} disabled={busy}>
            {busy ? 'Uploading…' : 'Choose a GeoJSON file'}
            <input
              ref={input}
              hidden
              type="file"
              accept=".geojson,.json,application/geo+json,application/json"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void upload(file);
              }}
            />
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
