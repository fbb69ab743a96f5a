/**
 * For administrators (region:create): upload a GeoJSON file of region shapes (postal codes by default) from the
 * map's layers menu. The server refuses a bad file whole and says why; the regions then redraw by themselves
 * (the upload publishes a region event).
 */
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { http } from '../app/services';

export function RegionUpload() {
  const input = useRef<HTMLInputElement>(null);
  const [type, setType] = useState('postal-code');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const upload = async (file: File) => {
    const form = new FormData();
    form.append('geometry_type', type);
    form.append('file', file, file.name);
    setBusy(true);
    setResult(null);
    try {
      const response = await http.post<{ message: string }>('/api/regions/upload', form);
      setResult({ ok: true, text: response.data.message });
    } catch (error) {
      // 422 bodies arrive flattened to one message per field.
      const e = error as { body?: { errors?: Record<string, string | string[]> }; message?: string };
      const file = e.body?.errors?.file;
      setResult({ ok: false, text: (Array.isArray(file) ? file[0] : file) ?? e.message ?? 'The file could not be uploaded.' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Box>
      <TextField select size="small" label="Shapes are" value={type} onChange={(e) => setType(e.target.value)} fullWidth sx={{ mt: 1 }}>
        <MenuItem value="postal-code">Postal codes</MenuItem>
        <MenuItem value="county">Counties</MenuItem>
        <MenuItem value="state">States</MenuItem>
      </TextField>
      <Button component="label" size="small" variant="outlined" startIcon={<UploadFileIcon />} disabled={busy} sx={{ mt: 1 }} fullWidth>
        {busy ? 'Uploading…' : 'Upload GeoJSON'}
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
      {result && (
        <Alert severity={result.ok ? 'success' : 'error'} sx={{ mt: 1 }} role="status">
          {result.text}
        </Alert>
      )}
    </Box>
  );
}
