/**
 * A user's name, email, password, role and teams (create and edit). It saves through the save context of the
 * EditBase / CreateBase around it (UserEdit, UserCreate); `emailError` is a server answer shown on the email field.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { useEffect } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  email,
  Form,
  minLength,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  required,
  SelectInput,
  TextInput,
  useGetList,
} from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { canGrant } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { recordLabel } from '../records/schema';

function Buttons({ onCancel }: { onCancel: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <Stack direction="row" spacing={1} sx={{ px: 2, pb: 2 }}>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        Save
      </Button>
      <Button onClick={onCancel}>Cancel</Button>
    </Stack>
  );
}

/** A server answer that belongs on the email field (another account's address, or a change saved meanwhile). */
function EmailError({ message }: { message?: string | null }) {
  const { setError } = useFormContext();
  useEffect(() => {
    if (message) setError('email', { type: 'server', message });
  }, [message, setError]);
  return null;
}

/**
 * The role picker offers only roles the signed-in person may give (every permission of the role is theirs); nobody
 * changes their own role. The server refuses both (users/account-rules.ts); this only keeps the form honest.
 */
function RoleInput({ record }: { record?: { id?: number } }) {
  const me = useSession().user;
  const { data: roles = [], isPending } = useGetList('roles', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const own = record?.id !== undefined && record.id === me?.id;
  const choices = roles.map((role) => ({
    id: role.id,
    name: role.name,
    disabled: !canGrant(me, role.permissions ?? []),
  }));
  return (
    <SelectInput
      source="role_id"
      label="Role"
      choices={choices}
      isPending={isPending}
      disabled={own}
      helperText={own ? 'Nobody changes their own role: ask another administrator.' : undefined}
      validate={required()}
    />
  );
}

export const USER_FIELDS = ['first_name', 'last_name', 'email', 'password', 'role_id', 'team_id', 'team_ids'] as const;

export function UserForm({
  record,
  onCancel,
  creating = false,
  emailError,
}: {
  record?: any;
  onCancel: () => void;
  creating?: boolean;
  emailError?: string | null;
}) {
  return (
    <Card variant="outlined" sx={{ maxWidth: 900 }}>
      <Form record={record} noValidate>
        <EmailError message={emailError} />
        <CardContent>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
              columnGap: 3,
              '& .MuiFormControl-root': { width: '100%' },
            }}
          >
            <TextInput source="first_name" label="First name" validate={required()} />
            <TextInput source="last_name" label="Last name" />
            <TextInput source="email" label="Email" type="email" validate={[required(), email()]} />
            <PasswordInput
              source="password"
              label={creating ? 'Password' : 'New password (leave blank to keep)'}
              validate={creating ? [required(), minLength(8)] : [minLength(8)]}
              autoComplete="new-password"
            />
            <RoleInput record={record} />
            <ReferenceInput source="team_id" reference="teams" perPage={25}>
              <AutocompleteInput label="Main team" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} />
            </ReferenceInput>
            <Box sx={{ gridColumn: '1 / -1' }}>
              <ReferenceArrayInput source="team_ids" reference="teams" perPage={25}>
                <AutocompleteArrayInput label="Teams" optionText={recordLabel} filterToQuery={(q: string) => ({ q })} />
              </ReferenceArrayInput>
            </Box>
          </Box>
        </CardContent>
        <Buttons onCancel={onCancel} />
      </Form>
    </Card>
  );
}

/** Only what the users resource accepts; a blank password keeps the current one. */
export function userValues(values: Record<string, unknown>, updatedAt?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of USER_FIELDS) if (key in values && values[key] !== undefined) out[key] = values[key];
  if (!out.password) delete out.password;
  if (updatedAt) out.updated_at = updatedAt;
  return out;
}
