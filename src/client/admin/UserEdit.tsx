/** Edit a user: name, email, password, role and teams. */
import { useNavigate, useParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import { Title, useGetOne } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useRecordMutations } from '../records/mutations';
import { LoadFailed, PageHeader, PageLoading } from '../records/ui';
import { UserForm, userValues } from './UserForm';

export default function UserEdit() {
  const { id } = useParams<{ id: string }>();
  const { data: user, error, isPending } = useGetOne('users', { id: id! });
  const { update } = useRecordMutations('users');
  const navigate = useNavigate();
  useDocumentTitle(user ? `Edit ${user.name}` : 'Users');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !user) return <PageLoading />;
  return (
    <Box>
      <Title title={`Edit ${user.name}`} />
      <PageHeader title={`Edit ${user.name}`} />
      <UserForm
        record={{ ...user, password: '' }}
        onCancel={() => navigate(`/users/${user.id}/show`)}
        onSubmit={async (values) => {
          const outcome = await update(user.id, userValues(values, user.updated_at), user, 'User updated successfully.');
          if (outcome.record) navigate(`/users/${user.id}/show`);
          if (outcome.conflict) return { email: outcome.conflict };
          return outcome.errors;
        }}
      />
    </Box>
  );
}
