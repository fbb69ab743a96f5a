/** A new user, through react-admin's CreateBase (pessimistic saves). */

import Box from '@mui/material/Box';
import { CreateBase, Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useSaveError, useServerMessage } from '../records/serverMessage';
import { UserForm, userValues } from './UserForm';

function UserCreateForm() {
  const navigate = useNavigate();
  useServerMessage('User created successfully.');
  return <UserForm creating onCancel={() => navigate('/users')} />;
}

export default function UserCreate() {
  const navigate = useNavigate();
  const onError = useSaveError();
  useDocumentTitle('New user');
  return (
    <CreateBase
      resource="users"
      mutationMode="pessimistic"
      redirect={false}
      transform={(values: Record<string, unknown>) => userValues(values)}
      mutationOptions={{
        onSuccess: (record: { id: string | number }) => navigate(`/users/${record.id}/show`),
        onError,
      }}
    >
      <Box>
        <Title title="New user" />
        <PageHeader title="New user" />
        <UserCreateForm />
      </Box>
    </CreateBase>
  );
}
