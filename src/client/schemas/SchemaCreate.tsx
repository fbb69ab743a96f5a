/**
 * A new record type (beyond SPEC): its names and, optionally, its first fields. It gets a menu entry and list,
 * create, edit and show screens at once, with no code change; more fields and rules are added in the editor.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import { Title } from 'react-admin';
import type { SchemaFieldType } from '../../common/schema-types';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { PageHeader } from '../layout/PageHeader';
import { FIELD_TYPE_CHOICES } from './shared';
import { useSchemaWrites } from './useSchemaEditor';

const SIMPLE_TYPES = FIELD_TYPE_CHOICES.filter((choice) => !['dropdown', 'radios', 'relation'].includes(choice.id));

export default function SchemaCreate() {
  useDocumentTitle('New record type');
  const writes = useSchemaWrites();
  const navigate = useNavigate();
  const [singular, setSingular] = useState('');
  const [plural, setPlural] = useState('');
  const [fields, setFields] = useState<Array<{ name: string; type: SchemaFieldType }>>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    const outcome = await writes.createSchema({
      name_singular: singular.trim(),
      name_plural: plural.trim() || `${singular.trim()}s`,
      fields: fields.filter((field) => field.name.trim()).map((field) => ({ name: field.name.trim(), type: field.type })),
    });
    setBusy(false);
    if (outcome.record) navigate(`/schemas/${outcome.record.id}`);
    else setErrors(outcome.errors ?? {});
  };

  return (
    <Box sx={{ maxWidth: 800 }}>
      <Title title="New record type" />
      <PageHeader title="New record type" subtitle="Every record has a name; add the other fields here or later in the editor." />
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <TextField label="One record is called" value={singular} onChange={(event) => setSingular(event.target.value)} required size="small" error={Boolean(errors.name_singular || errors.type)} helperText={errors.name_singular ?? errors.type ?? 'e.g. Vehicle'} sx={{ flex: 1 }} autoFocus />
              <TextField label="Several are called" value={plural} onChange={(event) => setPlural(event.target.value)} size="small" placeholder={singular ? `${singular}s` : ''} error={Boolean(errors.name_plural)} helperText={errors.name_plural ?? 'e.g. Vehicles'} sx={{ flex: 1 }} />
            </Stack>
            <Typography variant="subtitle2">First fields (optional)</Typography>
            {fields.map((field, index) => (
              <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField label="Field name" size="small" value={field.name} onChange={(event) => setFields(fields.map((item, i) => (i === index ? { ...item, name: event.target.value } : item)))} sx={{ flex: 2 }} slotProps={{ htmlInput: { 'data-testid': `new-field-name-${index}` } }} />
                <TextField select label="Type" size="small" value={field.type} onChange={(event) => setFields(fields.map((item, i) => (i === index ? { ...item, type: event.target.value as SchemaFieldType } : item)))} sx={{ flex: 1 }}>
                  {SIMPLE_TYPES.map((choice) => (
                    <MenuItem key={choice.id} value={choice.id}>
                      {choice.name}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton aria-label="Remove this field" onClick={() => setFields(fields.filter((_item, i) => i !== index))}>
                  <RemoveIcon />
                </IconButton>
              </Stack>
            ))}
            <Box>
              <Button size="small" startIcon={<AddIcon />} onClick={() => setFields([...fields, { name: '', type: 'text' }])}>
                Add a field
              </Button>
            </Box>
            {errors.fields && <Typography color="error">{errors.fields}</Typography>}
            <Stack direction="row" spacing={1}>
              <Button variant="contained" onClick={() => void save()} disabled={busy || !singular.trim()}>
                Create record type
              </Button>
              <Button onClick={() => navigate('/schemas')}>Cancel</Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
