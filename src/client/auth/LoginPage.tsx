/** /login (guest only): email, password, remember me; clear messages on a wrong password or when throttled. */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { GuestOnly } from '../routing/guards';
import { AuthLayout } from './AuthLayout';
import { loginErrorMessage } from './authErrors';

export default function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      // On success react-admin navigates to the redirect the authProvider returns (the intended path).
      await login({ email: email.trim(), password, remember });
    } catch (failure) {
      setError(loginErrorMessage(failure, translate));
      setSubmitting(false);
    }
  };

  return (
    <GuestOnly holdRedirect={submitting}>
      <AuthLayout title={translate('app.auth.sign_in_title')}>
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {error && (
            <Alert severity="error" role="alert" data-testid="login-error">
              {error}
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
            autoFocus
            fullWidth
            error={Boolean(error)}
          />
          <TextField
            label={translate('app.auth.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            fullWidth
            error={Boolean(error)}
          />
          <FormControlLabel
            control={
              <Checkbox name="remember" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
            }
            label={translate('app.auth.remember')}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={submitting || !email || !password}
            startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
          >
            {translate('app.auth.sign_in')}
          </Button>
          <Link component={RouterLink} to="/password/reset" variant="body2" sx={{ alignSelf: 'center' }}>
            {translate('app.auth.forgot')}
          </Link>
        </Box>
      </AuthLayout>
    </GuestOnly>
  );
}
