/**
 * /access-denied: react-admin's destination when `canAccess` refuses a page. It says what was refused and why (the
 * permission the person's role lacks) and offers the way back.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Title, useResourceDefinitions } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { permissionAction } from '../providers/access';
import { typeForResource } from '../resources/names';
import { refusedAndPrevious } from './locationTrail';

/** `/users/12/edit` -> resource `users`, action `edit`. */
function describe(path: string | undefined) {
  const segments = (path ?? '').split('?')[0]!.split('/').filter(Boolean);
  const resource = segments[0];
  const last = segments[segments.length - 1];
  const action = segments.length === 1 ? 'list' : last === 'create' || last === 'edit' ? last : 'show';
  return { resource, action };
}

export default function AccessDeniedPage() {
  const { user } = useSession();
  const definitions = useResourceDefinitions();
  const { refused, previous } = refusedAndPrevious();
  const { resource, action } = describe(refused);
  const label = resource ? String(definitions[resource]?.options?.label ?? resource.replace(/-/g, ' ')) : undefined;
  const entity = resource ? (typeForResource(resource) ?? resource) : undefined;
  const permission = entity ? `${entity}:${permissionAction(action)}` : undefined;
  const title = 'You cannot open this page';
  useDocumentTitle(title);
  return (
    <Stack spacing={2} sx={{ maxWidth: 640, py: 4 }} data-testid="access-denied">
      <Title title={title} />
      <Typography component="h1" variant="h4">
        {title}
      </Typography>
      <Typography>
        {label ? `${label}: ` : ''}
        {permission
          ? `your role${user?.role?.name ? `, ${user.role.name},` : ''} does not hold the permission ${permission}.`
          : 'your role does not hold the permission this page needs.'}{' '}
        An administrator can grant it in Roles.
      </Typography>
      <Stack direction="row" spacing={1}>
        {previous && previous !== refused && (
          <Button component={RouterLink} to={previous} variant="contained">
            Go back
          </Button>
        )}
        <Button component={RouterLink} to="/" variant={previous ? 'outlined' : 'contained'}>
          Dashboard
        </Button>
      </Stack>
    </Stack>
  );
}
