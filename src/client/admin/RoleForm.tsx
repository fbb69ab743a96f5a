/**
 * A role's name, slug, incognito flag, permissions (the checklist) and rules (what it sees of each record type, with
 * "see as"); used to create and to edit.
 */

import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { RolePolicy } from '../../common/access-rules';
import { AccessMatrix } from './AccessMatrix';
import { PermissionChecklist } from './PermissionChecklist';

export interface RoleValues {
  name: string;
  slug: string;
  incognito: boolean;
  permissions: string[];
  policy: RolePolicy;
}

export function RoleForm({
  initial,
  onSubmit,
  onCancel,
  readOnly = false,
}: {
  initial: RoleValues;
  onSubmit: (values: RoleValues) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
  readOnly?: boolean;
}) {
  const [values, setValues] = useState<RoleValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const slugFromName = (name: string) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <TextField
              label="Name"
              value={values.name}
              size="small"
              required
              disabled={readOnly}
              onChange={(event) =>
                setValues({
                  ...values,
                  name: event.target.value,
                  slug:
                    initial.slug || values.slug !== slugFromName(values.name)
                      ? values.slug
                      : slugFromName(event.target.value),
                })
              }
              error={Boolean(errors.name)}
              helperText={errors.name}
              sx={{ flex: 1 }}
            />
            <TextField
              label="Slug"
              value={values.slug}
              size="small"
              required
              disabled={readOnly}
              onChange={(event) => setValues({ ...values, slug: event.target.value })}
              error={Boolean(errors.slug)}
              helperText={errors.slug}
              sx={{ flex: 1 }}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={values.incognito}
                  disabled={readOnly}
                  onChange={(event) => setValues({ ...values, incognito: event.target.checked })}
                />
              }
              label="Incognito (actions hidden from the activity)"
            />
          </Stack>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <PermissionChecklist
            value={values.permissions}
            onChange={(permissions) => !readOnly && setValues({ ...values, permissions })}
          />
          {errors.permissions && (
            <Typography color="error" variant="body2">
              {errors.permissions}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <AccessMatrix
            role={values}
            readOnly={readOnly}
            onChange={(policy) => !readOnly && setValues({ ...values, policy })}
          />
          {Object.entries(errors)
            .filter(([key]) => key.startsWith('policy'))
            .map(([key, message]) => (
              <Typography key={key} color="error" variant="body2">
                {message}
              </Typography>
            ))}
        </CardContent>
      </Card>
      {!readOnly && (
        <Stack
          direction="row"
          spacing={1}
          sx={{ position: 'sticky', bottom: 0, bgcolor: 'background.default', py: 1, zIndex: 2 }}
        >
          <Button
            variant="contained"
            disabled={busy || !values.name.trim() || !values.slug.trim()}
            onClick={async () => {
              setBusy(true);
              const result = await onSubmit(values);
              setBusy(false);
              setErrors(result ?? {});
            }}
          >
            Save role
          </Button>
          <Button onClick={onCancel}>Cancel</Button>
        </Stack>
      )}
    </Stack>
  );
}
