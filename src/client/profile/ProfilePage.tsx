/**
 * /settings: edit one's own name, email and password (POST /api/profile; 422 messages go on the fields), and one's
 * personal access tokens (TokensSection).
 */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  email,
  Form,
  PasswordInput,
  required,
  SaveButton,
  TextInput,
  Title,
  useNotify,
  useTranslate,
} from 'react-admin';
import { adoptSessionUser, useSession } from '../app/hooks';
import { ApiError } from '../http/errors';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useAppDataProvider } from '../records/hooks';
import TokensSection from './TokensSection';

interface ProfileValues {
  first_name: string;
  last_name: string;
  email: string;
  current_password?: string;
  password?: string;
  password_confirmation?: string;
}

export default function ProfilePage() {
  const { user } = useSession();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const title = translate('app.profile.title');
  useDocumentTitle(title);
  if (!user) return null;

  const submit = async (values: Partial<ProfileValues>) => {
    const payload: Record<string, unknown> = {
      first_name: values.first_name,
      last_name: values.last_name,
      email: values.email,
    };
    if (values.password) {
      payload.password = values.password;
      payload.password_confirmation = values.password_confirmation ?? '';
    }
    if (values.current_password) payload.current_password = values.current_password;
    try {
      const result = await dataProvider.updateProfile(payload);
      if (result.data) adoptSessionUser(result.data);
      notify(result.message || translate('app.profile.updated'), { type: 'success' });
      return undefined;
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.status === 422 &&
        error.body?.errors &&
        Object.keys(error.body.errors).length > 0
      ) {
        // react-admin's Form puts these on the fields.
        return error.body.errors;
      }
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      return undefined;
    }
  };

  const defaults: ProfileValues = {
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    current_password: '',
    password: '',
    password_confirmation: '',
  };

  return (
    <>
      <Title title={title} />
      <Card variant="outlined" sx={{ maxWidth: 720 }}>
        <CardContent>
          <Form defaultValues={defaults} onSubmit={submit as any} key={user.id}>
            <Typography component="h1" variant="h3" gutterBottom>
              {translate('app.profile.details')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
              <TextInput
                source="first_name"
                label={translate('app.profile.first_name')}
                validate={required()}
                fullWidth
              />
              <TextInput
                source="last_name"
                label={translate('app.profile.last_name')}
                validate={required()}
                fullWidth
              />
            </Stack>
            <TextInput
              source="email"
              type="email"
              label={translate('app.profile.email')}
              validate={[required(), email()]}
              fullWidth
            />
            <Divider sx={{ my: 2 }} />
            <Typography component="h2" variant="h6">
              {translate('app.profile.password_section')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate('app.profile.password_help')}
            </Typography>
            <PasswordInput
              source="current_password"
              label={translate('app.profile.current_password')}
              autoComplete="current-password"
              fullWidth
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
              <PasswordInput
                source="password"
                label={translate('app.profile.password')}
                autoComplete="new-password"
                fullWidth
              />
              <PasswordInput
                source="password_confirmation"
                label={translate('app.profile.password_confirmation')}
                autoComplete="new-password"
                fullWidth
              />
            </Stack>
            <SaveButton label={translate('app.profile.save')} alwaysEnable={false} sx={{ mt: 1 }} />
          </Form>
          <Divider sx={{ my: 2 }} />
          <TokensSection />
        </CardContent>
      </Card>
    </>
  );
}
