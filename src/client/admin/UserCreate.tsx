/** A new user. */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import { Title } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useRecordMutations } from '../records/mutations';
import { PageHeader } from '../records/ui';
import { UserForm, userValues } from './UserForm';

export default function UserCreate() {
  const { create } = useRecordMutations('users');
  const navigate = useNavigate();
  useDocumentTitle('New user');
  return (
    <Box>
      <Title title="New user" />
      <PageHeader title="New user" />
      <UserForm
        creating
        onCancel={() => navigate('/users')}
        onSubmit={async (values) => {
          const outcome = await create(userValues(values), 'User created successfully.');
          if (outcome.record) navigate(`/users/${outcome.record.id}/show`);
          return outcome.errors;
        }}
      />
    </Box>
  );
}
