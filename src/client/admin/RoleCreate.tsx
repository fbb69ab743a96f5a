/** A new role with its permissions. */
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import { Title } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useRecordMutations } from '../records/mutations';
import { PageHeader } from '../records/ui';
import { RoleForm } from './RoleForm';

export default function RoleCreate() {
  const { create } = useRecordMutations('roles');
  const navigate = useNavigate();
  useDocumentTitle('New role');
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title="New role" />
      <PageHeader title="New role" />
      <RoleForm
        initial={{ name: '', slug: '', incognito: false, permissions: ['feature:read', 'notification:read', 'notification:update', 'schema:read'] }}
        onCancel={() => navigate('/roles')}
        onSubmit={async (values) => {
          const outcome = await create(values as unknown as Record<string, unknown>, 'Role created successfully.');
          if (outcome.record) navigate(`/roles/${outcome.record.id}`);
          return outcome.errors;
        }}
      />
    </Box>
  );
}
