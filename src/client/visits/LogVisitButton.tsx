/** "Log a visit" at a site, for people who may create visits (site page, the map's marker card). */

import AddLocationAltIcon from '@mui/icons-material/AddLocationAlt';
import Button, { type ButtonProps } from '@mui/material/Button';
import { useCanAccess } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { logVisitPath } from './links';

export function LogVisitButton({ siteId, ...props }: { siteId: number } & Omit<ButtonProps, 'onClick'>) {
  const navigate = useNavigate();
  const { canAccess } = useCanAccess({ resource: 'visits', action: 'create' });
  if (!canAccess) return null;
  return (
    <Button
      variant="contained"
      startIcon={<AddLocationAltIcon />}
      onClick={() => navigate(logVisitPath(siteId))}
      data-testid="log-visit"
      {...props}
    >
      Log a visit
    </Button>
  );
}
