/** A new role with its permissions, through react-admin's create controller (pessimistic saves). */

import Box from '@mui/material/Box';
import { CreateContextProvider, Title, useCreateController } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ServerMessage, useSaveError } from '../records/serverMessage';
import { RoleForm, type RoleValues } from './RoleForm';

export default function RoleCreate() {
  const navigate = useNavigate();
  const onError = useSaveError();
  const controller = useCreateController({
    resource: 'roles',
    mutationMode: 'pessimistic',
    redirect: false,
    mutationOptions: { onSuccess: (record: { id: string | number }) => navigate(`/roles/${record.id}`), onError },
  });
  useDocumentTitle('New role');
  return (
    <CreateContextProvider value={controller}>
      <ServerMessage fallback="Role created successfully." />
      <Box sx={{ maxWidth: 1100 }}>
        <Title title="New role" />
        <PageHeader title="New role" />
        <RoleForm
          initial={{
            name: '',
            slug: '',
            incognito: false,
            permissions: ['feature:read', 'notification:read', 'notification:update', 'schema:read'],
            policy: {},
          }}
          onCancel={() => navigate('/roles')}
          onSubmit={async (values: RoleValues) =>
            (await controller.save?.({ ...values })) as Record<string, string> | undefined
          }
        />
      </Box>
    </CreateContextProvider>
  );
}
