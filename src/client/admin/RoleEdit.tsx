/** Edit a role (`/roles/{id}`; also its show page): name, slug, incognito, and the permission checklist. */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Title, useGetOne } from 'react-admin';
import { canGrant, canOnEntity } from '../../common/permissions';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useUser } from '../records/hooks';
import { useRecordMutations } from '../records/mutations';
import { LoadFailed, PageHeader, PageLoading } from '../records/ui';
import { RoleForm } from './RoleForm';

export default function RoleEdit() {
  const { id } = useParams<{ id: string }>();
  const { data: role, error, isPending, refetch } = useGetOne('roles', { id: id! });
  const { update } = useRecordMutations('roles');
  const navigate = useNavigate();
  const user = useUser();
  const [conflict, setConflict] = useState<string | null>(null);
  useDocumentTitle(role ? `${role.name} · Roles` : 'Roles');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !role) return <PageLoading />;
  // Nobody edits a role holding permissions they lack (the server refuses it).
  const beyond = !canGrant(user, role.permissions ?? []);
  const readOnly = !canOnEntity(user, 'role', 'update') || beyond;
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={`Role: ${role.name}`} />
      <PageHeader title={role.name} subtitle={`${(role.permissions ?? []).length} permissions`} />
      {beyond && canOnEntity(user, 'role', 'update') && (
        <Alert severity="info" sx={{ mb: 2 }}>
          This role holds permissions you do not have, so only someone who holds them all can change it.
        </Alert>
      )}
      {conflict && (
        <Alert severity="warning" sx={{ mb: 2 }} action={<Button color="inherit" size="small" onClick={() => void refetch().then(() => setConflict(null))}>Reload</Button>}>
          {conflict}
        </Alert>
      )}
      <RoleForm
        key={role.updated_at}
        readOnly={readOnly}
        initial={{ name: role.name ?? '', slug: role.slug ?? '', incognito: Boolean(role.incognito), permissions: role.permissions ?? [] }}
        onCancel={() => navigate('/roles')}
        onSubmit={async (values) => {
          const outcome = await update(role.id, { ...values, updated_at: role.updated_at }, role, 'Role updated successfully.');
          if (outcome.conflict) setConflict(outcome.conflict);
          if (outcome.record) navigate('/roles');
          return outcome.errors;
        }}
      />
    </Box>
  );
}
