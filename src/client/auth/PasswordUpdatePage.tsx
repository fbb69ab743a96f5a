/** /password/update?token=...&email=... (guest only, from the emailed link): choose a new password. */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useAuthProvider, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import type { AppAuthProvider } from '../providers/authProvider';
import { GuestOnly } from '../routing/guards';
import { AuthLayout } from './AuthLayout';
import { fieldErrors } from './authErrors';

export default function PasswordUpdatePage() {
  const translate = useTranslate();
  const authProvider = useAuthProvider() as unknown as AppAuthProvider;
  const notify = useNotify();
  const navigate = useNavigate();
  const params = new URLSearchParams(useLocation().search);
  const token = params.get('token') ?? '';
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirmation) {
      setErrors({ password_confirmation: translate('app.auth.passwords_differ') });
      return;
    }
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const message = await authProvider.updatePassword({
        token,
        email: email.trim(),
        password,
        password_confirmation: confirmation,
      });
      notify(message, { type: 'success' });
      await navigate('/login', { replace: true });
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      if (!fields.password && !fields.email && !fields.password_confirmation)
        setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <GuestOnly>
      <AuthLayout title={translate('app.auth.update_title')}>
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {!token && <Alert severity="warning">{translate('app.auth.missing_token')}</Alert>}
          {(error || errors.token) && (
            <Alert severity="error" role="alert">
              {errors.token ?? error}
            </Alert>
          )}
          <TextField
            label={translate('app.auth.email')}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            fullWidth
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
          <TextField
            label={translate('app.auth.new_password')}
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            fullWidth
            error={Boolean(errors.password)}
            helperText={errors.password}
          />
          <TextField
            label={translate('app.auth.confirm_password')}
            type="password"
            name="password_confirmation"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            required
            fullWidth
            error={Boolean(errors.password_confirmation)}
            helperText={errors.password_confirmation}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={busy || !token || !email || !password || !confirmation}
          >
            {translate('app.auth.update_send')}
          </Button>
          <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
            {translate('app.auth.back_to_login')}
          </Link>
        </Box>
      </AuthLayout>
    </GuestOnly>
  );
}
