/**
 * A new record type (beyond SPEC): its names and, optionally, its first fields. It gets a menu entry and list,
 * create, edit and show screens at once, with no code change; more fields and rules are added in the editor.
 */

import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Title, useCanAccess, useDataProvider, useGetList, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { SchemaFieldType } from '../../common/schema-types';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { type Grants, grantedPermissions, makesTypes, RoleGrants, type RoleRow } from './RoleGrants';
import { FIELD_TYPE_CHOICES, relationTargetChoices } from './shared';
import { useSchemaWrites } from './useSchemaEditor';

interface NewField {
  name: string;
  type: SchemaFieldType;
  /** Dropdown and radios: the choices, one per line or comma-separated. */
  choices?: string;
  /** Relation: what it points at. */
  target?: string;
}

/** The options a first field of this type needs (the field dialog asks the same). */
function optionsOf(field: NewField): Record<string, unknown> | undefined {
  if (field.type === 'dropdown' || field.type === 'radios') {
    return {
      choices: (field.choices ?? '')
        .split(/[\n,]/)
        .map((choice) => choice.trim())
        .filter(Boolean),
    };
  }
  if (field.type === 'relation') return { target: field.target };
  return undefined;
}

export default function SchemaCreate() {
  useDocumentTitle('New record type');
  const writes = useSchemaWrites();
  const navigate = useNavigate();
  const [singular, setSingular] = useState('');
  const [plural, setPlural] = useState('');
  const [fields, setFields] = useState<NewField[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [grants, setGrants] = useState<Grants>({});
  const { canAccess: mayEditRoles } = useCanAccess({ resource: 'roles', action: 'edit' });
  const { data: roles = [] } = useGetList<RoleRow>(
    'roles',
    { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } },
    { enabled: Boolean(mayEditRoles) },
  );
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const targets = relationTargetChoices();
  const change = (index: number, patch: Partial<NewField>) =>
    setFields(fields.map((item, i) => (i === index ? { ...item, ...patch } : item)));

  const grant = async (type: string) => {
    for (const role of roles) {
      const actions = grants[role.id] ?? [];
      if (makesTypes(role) || actions.length === 0) continue;
      try {
        await dataProvider.update('roles', {
          id: role.id,
          data: { permissions: grantedPermissions(role, type, actions) },
          previousData: role,
        });
      } catch (error) {
        notify(`${role.name} did not get the permissions: ${(error as Error).message}`, { type: 'error' });
      }
    }
  };

  const save = async () => {
    setBusy(true);
    const outcome = await writes.createSchema({
      name_singular: singular.trim(),
      name_plural: plural.trim() || `${singular.trim()}s`,
      fields: fields
        .filter((field) => field.name.trim())
        .map((field) => ({ name: field.name.trim(), type: field.type, options: optionsOf(field) })),
    });
    if (outcome.record) await grant(String((outcome.record as { type: string }).type));
    setBusy(false);
    if (outcome.record) await navigate(`/schemas/${outcome.record.id}`);
    else setErrors(outcome.errors ?? {});
  };

  return (
    <Box sx={{ maxWidth: 800 }}>
      <Title title="New record type" />
      <PageHeader
        title="New record type"
        subtitle="Every record has a name; add the other fields here or later in the editor."
      />
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <TextField
                label="One record is called"
                value={singular}
                onChange={(event) => setSingular(event.target.value)}
                required
                size="small"
                error={Boolean(errors.name_singular || errors.type)}
                helperText={errors.name_singular ?? errors.type ?? 'e.g. Vehicle'}
                sx={{ flex: 1 }}
                autoFocus
              />
              <TextField
                label="Several are called"
                value={plural}
                onChange={(event) => setPlural(event.target.value)}
                size="small"
                placeholder={singular ? `${singular}s` : ''}
                error={Boolean(errors.name_plural)}
                helperText={errors.name_plural ?? 'e.g. Vehicles'}
                sx={{ flex: 1 }}
              />
            </Stack>
            <Typography variant="subtitle2">First fields (optional)</Typography>
            {fields.map((field, index) => (
              <Stack
                key={index}
                direction="row"
                spacing={1}
                sx={{ alignItems: 'flex-start', flexWrap: 'wrap', rowGap: 1 }}
              >
                <TextField
                  label="Field name"
                  size="small"
                  value={field.name}
                  onChange={(event) => change(index, { name: event.target.value })}
                  sx={{ flex: 2, minWidth: 160 }}
                  slotProps={{ htmlInput: { 'data-testid': `new-field-name-${index}` } }}
                  error={Boolean(errors[`fields.${index}.name`])}
                  helperText={errors[`fields.${index}.name`]}
                />
                <TextField
                  select
                  label="Type"
                  size="small"
                  value={field.type}
                  onChange={(event) => change(index, { type: event.target.value as SchemaFieldType })}
                  sx={{ flex: 1, minWidth: 140 }}
                  slotProps={{ htmlInput: { 'data-testid': `new-field-type-${index}` } }}
                >
                  {FIELD_TYPE_CHOICES.map((choice) => (
                    <MenuItem key={choice.id} value={choice.id}>
                      {choice.name}
                    </MenuItem>
                  ))}
                </TextField>
                {(field.type === 'dropdown' || field.type === 'radios') && (
                  <TextField
                    label="Choices"
                    size="small"
                    value={field.choices ?? ''}
                    onChange={(event) => change(index, { choices: event.target.value })}
                    placeholder="Small, Medium, Large"
                    sx={{ flex: 2, minWidth: 160 }}
                    error={Boolean(errors[`fields.${index}.options`])}
                    helperText={errors[`fields.${index}.options`] ?? 'Separated by commas'}
                    slotProps={{ htmlInput: { 'data-testid': `new-field-choices-${index}` } }}
                  />
                )}
                {field.type === 'relation' && (
                  <TextField
                    select
                    label="Points at"
                    size="small"
                    value={field.target ?? ''}
                    onChange={(event) => change(index, { target: event.target.value })}
                    sx={{ flex: 2, minWidth: 160 }}
                    error={Boolean(errors[`fields.${index}.options`])}
                    helperText={errors[`fields.${index}.options`]}
                  >
                    {targets.map((target) => (
                      <MenuItem key={target.id} value={target.id}>
                        {target.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                <IconButton
                  aria-label="Remove this field"
                  onClick={() => setFields(fields.filter((_item, i) => i !== index))}
                >
                  <RemoveIcon />
                </IconButton>
              </Stack>
            ))}
            <Box>
              <Button
                size="small"
                startIcon={<AddIcon />}
                onClick={() => setFields([...fields, { name: '', type: 'text' }])}
              >
                Add a field
              </Button>
            </Box>
            {errors.fields && <Typography color="error">{errors.fields}</Typography>}
            {mayEditRoles && <RoleGrants roles={roles} grants={grants} onChange={setGrants} />}
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
