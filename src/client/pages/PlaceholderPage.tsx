/**
 * PLACEHOLDER for screens that later issues build (activity, map, and record lists whose resources the
 * server does not offer yet). It only names the screen; see docs/client.md.
 */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Title, useTranslate } from 'react-admin';
import { useDocumentTitle } from '../layout/useDocumentTitle';

export default function PlaceholderPage({ title }: { title: string }) {
  const translate = useTranslate();
  useDocumentTitle(title);
  return (
    <>
      <Title title={title} />
      <Card variant="outlined" data-testid="placeholder-page">
        <CardContent>
          <Typography component="h1" variant="h2" gutterBottom>
            {title}
          </Typography>
          <Typography color="text.secondary">{translate('app.placeholder.message')}</Typography>
        </CardContent>
      </Card>
    </>
  );
}
