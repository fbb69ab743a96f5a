/** /password/reset (guest only): ask for a reset link by email. */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useAuthProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { AppAuthProvider } from '../providers/authProvider';
import { GuestOnly } from '../routing/guards';
import { AuthLayout } from './AuthLayout';
import { fieldErrors } from './authErrors';

export default function PasswordResetPage() {
  const translate = useTranslate();
  const authProvider = useAuthProvider() as unknown as AppAuthProvider;
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      setSent(await authProvider.requestPasswordReset(email.trim()));
    } catch (failure) {
      setErrors(fieldErrors(failure));
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <GuestOnly>
      <AuthLayout title={translate('app.auth.reset_title')}>
        <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('app.auth.reset_help')}
          </Typography>
          {sent && (
            <Alert severity="success" role="status">
              {sent}
            </Alert>
          )}
          {error && !errors.email && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            label={translate('app.auth.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            autoFocus
            fullWidth
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy || !email}>
            {translate('app.auth.reset_send')}
          </Button>
          <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
            {translate('app.auth.back_to_login')}
          </Link>
        </Box>
      </AuthLayout>
    </GuestOnly>
  );
}
