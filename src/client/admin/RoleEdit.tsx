/**
 * Edit a role (`/roles/{id}`; also its show page, read-only for people who may not update roles): name, slug,
 * incognito, and the permission checklist, on react-admin's edit controller (pessimistic saves).
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { EditContextProvider, Title, useCanAccess, useEditController } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { rulesBeyond } from '../../common/access-rules';
import { canGrant } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ServerMessage, useRefetchLists, useSaveError } from '../records/serverMessage';
import { LoadFailed, PageLoading } from '../records/ui';
import { RoleForm, type RoleValues } from './RoleForm';

export default function RoleEdit() {
  const { id } = useParams<{ id: string }>();
  const navigate = useNavigate();
  const [conflict, setConflict] = useState<string | null>(null);
  const onError = useSaveError(setConflict);
  const refetchLists = useRefetchLists('roles');
  const me = useSession().user;
  const { canAccess: canUpdate } = useCanAccess({ resource: 'roles', action: 'edit' });
  const controller = useEditController({
    resource: 'roles',
    id,
    mutationMode: 'pessimistic',
    redirect: false,
    // This page is also the role's show page: reading is enough to open it; saving needs `role:update` (checked here
    // with useCanAccess, and by the server).
    disableAuthentication: true,
    mutationOptions: {
      onSuccess: () => {
        void refetchLists();
        void navigate('/roles');
      },
      onError,
    },
    queryOptions: { onError: () => undefined },
  });
  const { record: role, error, isPending, refetch, save } = controller;
  useDocumentTitle(role ? `${role.name} · Roles` : 'Roles');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !role) return <PageLoading />;
  // Nobody edits a role holding permissions they lack (the server refuses it).
  // Nor one whose rules reach further than their own (a wider row rule, a field they may not see).
  const beyond =
    !canGrant(me, role.permissions ?? []) ||
    rulesBeyond(me, { permissions: role.permissions ?? [], policy: role.policy ?? {} }).length > 0;
  return (
    <EditContextProvider value={controller}>
      <ServerMessage fallback="Role updated successfully." />
      <Box sx={{ maxWidth: 1100 }}>
        <Title title={`Role: ${role.name}`} />
        <PageHeader title={role.name} subtitle={`${(role.permissions ?? []).length} permissions`} />
        {beyond && canUpdate && (
          <Alert severity="info" sx={{ mb: 2 }}>
            This role holds permissions you do not have, so only someone who holds them all can change it.
          </Alert>
        )}
        {conflict && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => void refetch().then(() => setConflict(null))}>
                Reload
              </Button>
            }
          >
            {conflict}
          </Alert>
        )}
        <RoleForm
          key={role.updated_at}
          readOnly={!canUpdate || beyond}
          initial={{
            name: role.name ?? '',
            slug: role.slug ?? '',
            incognito: Boolean(role.incognito),
            permissions: role.permissions ?? [],
            policy: role.policy ?? {},
          }}
          onCancel={() => navigate('/roles')}
          onSubmit={async (values: RoleValues) =>
            (await save?.({ ...values, updated_at: role.updated_at })) as Record<string, string> | undefined
          }
        />
      </Box>
    </EditContextProvider>
  );
}
