/** The public-forms screens are for those who may change schemas (`schema:update`, as the server checks). */
import Alert from '@mui/material/Alert';
import type { ReactNode } from 'react';
import { Title, useCanAccess } from 'react-admin';

export function ManagerOnly({ children }: { children: ReactNode }) {
  const { canAccess, isPending } = useCanAccess({ resource: 'schemas', action: 'edit' });
  if (isPending) return null;
  if (!canAccess)
    return (
      <>
        <Title title="Public forms" />
        <Alert severity="info" sx={{ m: 2 }}>
          You can't manage public forms. Ask an administrator.
        </Alert>
      </>
    );
  return <>{children}</>;
}
