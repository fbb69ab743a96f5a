/**
 * /access-denied: react-admin's destination when `canAccess` refuses a page. It says in plain words what was refused
 * ("You can't add job sites. Ask an administrator."), names the permission in small print for the administrator
 * asked, and offers the way back.
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
import { refusalSentence } from './plainWords';

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
  const act = String(permissionAction(action));
  const permission = entity ? `${entity}:${act}` : undefined;
  const title = 'You cannot open this page';
  useDocumentTitle(title);
  return (
    <Stack spacing={2} sx={{ maxWidth: 640, py: 4 }} data-testid="access-denied">
      <Title title={title} />
      <Typography component="h1" variant="h4">
        {title}
      </Typography>
      <Typography data-testid="access-denied-sentence">{refusalSentence(label, act)}</Typography>
      <Typography variant="body2" color="text.secondary">
        {permission
          ? `For the administrator: your role${user?.role?.name ? `, ${user.role.name},` : ''} needs the permission ${permission} (in Roles).`
          : 'For the administrator: your role lacks the permission this page needs (in Roles).'}
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
