/**
 * Edit a user: name, email, password, role and teams, on react-admin's edit controller (pessimistic saves); or make
 * them a password reset link.
 */

import Box from '@mui/material/Box';
import { useState } from 'react';
import { EditContextProvider, Title, useEditController } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useRefetchLists, useSaveError, useServerMessage } from '../records/serverMessage';
import { LoadFailed, PageLoading } from '../records/ui';
import { ResetLinkButton } from './ResetLinkButton';
import { UserForm, userValues } from './UserForm';

function UserEditForm({ user, emailError }: { user: any; emailError: string | null }) {
  const navigate = useNavigate();
  useServerMessage('User updated successfully.');
  return (
    <UserForm
      record={{ ...user, password: '' }}
      emailError={emailError}
      onCancel={() => navigate(`/users/${user.id}/show`)}
    />
  );
}

export default function UserEdit() {
  const { id } = useParams<{ id: string }>();
  const navigate = useNavigate();
  const [emailError, setEmailError] = useState<string | null>(null);
  const onError = useSaveError(setEmailError);
  const refetchLists = useRefetchLists('users');
  const controller = useEditController({
    resource: 'users',
    id,
    mutationMode: 'pessimistic',
    redirect: false,
    transform: (values: Record<string, unknown>, options?: { previousData?: { updated_at?: string } }) =>
      userValues(values, options?.previousData?.updated_at),
    mutationOptions: {
      onSuccess: () => {
        void refetchLists();
        void navigate(`/users/${id}/show`);
      },
      onError,
    },
    queryOptions: { onError: () => undefined },
  });
  const { record: user, error, isPending } = controller;
  useDocumentTitle(user ? `Edit ${user.name}` : 'Users');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !user) return <PageLoading />;
  return (
    <EditContextProvider value={controller}>
      <Box>
        <Title title={`Edit ${user.name}`} />
        <PageHeader title={`Edit ${user.name}`} actions={<ResetLinkButton user={user} />} />
        <UserEditForm user={user} emailError={emailError} />
      </Box>
    </EditContextProvider>
  );
}
