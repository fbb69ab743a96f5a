/** /404 in its own layout; every unknown path is sent here. */
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { CenteredCardLayout } from '../layout/CenteredCardLayout';
import { useDocumentTitle } from '../layout/useDocumentTitle';

export default function NotFoundPage() {
  const translate = useTranslate();
  useDocumentTitle(translate('app.not_found.title'));
  return (
    <CenteredCardLayout>
      <Typography variant="overline" component="p" color="text.secondary" sx={{ fontSize: '1rem' }}>
        404
      </Typography>
      <Typography component="h1" variant="h2" sx={{ mb: 3 }}>
        {translate('app.not_found.message')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {translate('app.not_found.home')}
      </Button>
    </CenteredCardLayout>
  );
}
