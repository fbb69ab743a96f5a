/** Sign in as another user (needs user:impersonate); the whole app reloads as them. */

import LoginIcon from '@mui/icons-material/Login';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { Confirm, useAuthProvider, useNotify } from 'react-admin';

export function ImpersonateButton({ user }: { user: { id: number; name: string } }) {
  const authProvider = useAuthProvider() as unknown as { impersonate(id: number): Promise<unknown> };
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<LoginIcon />} onClick={() => setOpen(true)}>
        Sign in as {user.name.split(' ')[0]}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={`Sign in as ${user.name}?`}
        content="You will see the app as they do. Use “Back to …” in the account menu to return."
        confirm="Sign in as them"
        onConfirm={async () => {
          setBusy(true);
          try {
            await authProvider.impersonate(user.id);
            window.location.assign('/');
          } catch (error) {
            notify((error as Error).message, { type: 'error' });
            setBusy(false);
            setOpen(false);
          }
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
