/** A user: details, role, teams, monthly goals; edit, make a password reset link, and sign in as them. */

import EditIcon from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  RecordContextProvider,
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  Title,
  useCanAccess,
  useGetOne,
  WithRecord,
} from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { canGrant } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { formatDateTime } from '../i18n/dates';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { PresenceAvatars } from '../records/presence/PresenceAvatars';
import { recordLabel } from '../records/schema';
import { LoadFailed, PageLoading } from '../records/ui';
import { GoalsCard } from './GoalsCard';
import { ImpersonateButton } from './ImpersonateButton';
import { ResetLinkButton } from './ResetLinkButton';

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: 0.4 }}
      >
        {label}
      </Typography>
      <Typography variant="body2" component="div">
        {children}
      </Typography>
    </Box>
  );
}

export default function UserShow() {
  const { id } = useParams<{ id: string }>();
  const { data: user, error, isPending } = useGetOne('users', { id: id! });
  const me = useSession().user;
  const { canAccess: mayUpdate = false } = useCanAccess({ resource: 'users', action: 'edit', record: user });
  const { canAccess: mayImpersonate } = useCanAccess({ resource: 'users', action: 'impersonate', record: user });
  const { canAccess: mayReadRoles } = useCanAccess({ resource: 'roles', action: 'read' });
  // An account whose role holds more than the person's own is managed only by those holding it all (the server's rule).
  const { data: role } = useGetOne(
    'roles',
    { id: user?.role_id },
    { enabled: Boolean(user?.role_id) && Boolean(mayReadRoles) },
  );
  useDocumentTitle(user ? `${user.name} · Users` : 'Users');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !user) return <PageLoading />;
  const manageable = !role || canGrant(me, role.permissions ?? []);
  const canUpdate = mayUpdate && manageable;
  return (
    <RecordContextProvider value={user}>
      <Box sx={{ maxWidth: 1000 }}>
        <Title title={`User: ${user.name}`} />
        <PageHeader
          title={user.name}
          subtitle={user.email}
          actions={
            <>
              <PresenceAvatars type="user" id={user.id} />
              {canUpdate && (
                <Button
                  size="small"
                  variant="contained"
                  startIcon={<EditIcon />}
                  component={RouterLink}
                  to={`/users/${user.id}`}
                >
                  Edit
                </Button>
              )}
              {canUpdate && <ResetLinkButton user={user} />}
              {mayImpersonate && manageable && me?.id !== user.id && <ImpersonateButton user={user} />}
            </>
          }
        />
        <Stack spacing={2}>
          <Card variant="outlined">
            <CardContent>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
                <Item label="Role">{user.role ? <Chip size="small" label={user.role.name} /> : '—'}</Item>
                <Item label="Main team">
                  <ReferenceField source="team_id" reference="teams" link="show" emptyText="—">
                    <WithRecord render={(team) => <span>{recordLabel(team)}</span>} />
                  </ReferenceField>
                </Item>
                <Item label="Teams">
                  {(user.team_ids ?? []).length ? (
                    <ReferenceArrayField source="team_ids" reference="teams">
                      <SingleFieldList linkType="show" sx={{ gap: 0.5, my: 0 }}>
                        <WithRecord render={(team) => <Chip size="small" label={recordLabel(team)} clickable />} />
                      </SingleFieldList>
                    </ReferenceArrayField>
                  ) : (
                    '—'
                  )}
                </Item>
                <Item label="Last sign-in">{user.last_login_at ? formatDateTime(user.last_login_at) : 'Never'}</Item>
              </Box>
            </CardContent>
          </Card>
          <GoalsCard user={user} canEdit={canUpdate} />
        </Stack>
      </Box>
    </RecordContextProvider>
  );
}
