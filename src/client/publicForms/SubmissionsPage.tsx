/** `/public-forms/:id/submissions`: who sent a form and when; for cards, confirmed or not and the receipt. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { ListBase, Pagination, Title, useListContext } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { PublicForm, Submission } from '../../common/public-forms';
import { formatDateTime } from '../i18n/dates';
import { usePublicFormsApi } from './api';
import { ManagerOnly } from './ManagerOnly';
import { PublicLink } from './PublicLink';

export default function SubmissionsPage() {
  return (
    <ManagerOnly>
      <Submissions />
    </ManagerOnly>
  );
}

/** Who sent it, in words: a card's signer, else the first text values of the record form. */
function sender(submission: Submission): string {
  const values = submission.submitted;
  const name = values.name ?? values.full_name ?? [values.first_name, values.last_name].filter(Boolean).join(' ');
  const reach = values.email ?? values.phone;
  const who = [name, reach].filter((part) => typeof part === 'string' && part.trim()).join(' · ');
  if (who) return who;
  const texts = Object.values(values).filter((value) => typeof value === 'string' && value.trim());
  return texts.slice(0, 2).join(' · ') || 'Someone who left no name';
}

const PAGE_SIZES = [25, 50, 100];

function Submissions() {
  const id = Number(useParams().id);
  const api = usePublicFormsApi();
  const [form, setForm] = useState<PublicForm | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api
      .list()
      .then((forms) => setForm(forms.find((candidate) => candidate.id === id) ?? null))
      .catch((error: Error) => setFailure(error.message));
  }, [api, id]);
  const title = form ? `Submissions: ${form.title}` : 'Submissions';

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 960 }}>
      <Title title={title} />
      <div>
        <Button component={RouterLink} to="/public-forms">
          All public forms
        </Button>
      </div>
      {form && <PublicLink slug={form.slug} />}
      {failure && <Alert severity="error">{failure}</Alert>}
      <ListBase
        resource={`public-forms/${id}/submissions`}
        perPage={25}
        sort={{ field: 'id', order: 'DESC' }}
        disableSyncWithLocation
        storeKey={false}
      >
        <SubmissionRows card={form?.kind === 'card'} />
      </ListBase>
    </Stack>
  );
}

/** The page of submissions the list holds, with how many there are in all and, for cards, how many are confirmed. */
function SubmissionRows({ card }: { card: boolean }) {
  const { data, total, meta, error, isPending } = useListContext<Submission>();
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (isPending) return null;
  if (!total) return <Typography>Nobody has sent this form yet.</Typography>;
  return (
    <>
      <Typography color="text.secondary">
        {`${total.toLocaleString('en-US')} submission${total === 1 ? '' : 's'}`}
        {card ? `, ${Number(meta?.confirmed ?? 0).toLocaleString('en-US')} confirmed.` : '.'}
      </Typography>
      <List aria-label="Submissions">
        {data.map((row) => (
          <ListItem key={row.id} divider sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
            <ListItemText
              primary={sender(row)}
              secondary={`Sent ${formatDateTime(row.created_at)} from ${row.ip}`}
              sx={{ flex: '1 1 240px', overflowWrap: 'anywhere' }}
            />
            {card && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                {row.confirmed_at ? (
                  <Chip size="small" color="success" label={`Confirmed ${formatDateTime(row.confirmed_at)}`} />
                ) : (
                  <Chip
                    size="small"
                    label={`Not confirmed yet${row.confirm_via ? ` (${row.confirm_via === 'sms' ? 'text' : 'email'} sent)` : ''}`}
                  />
                )}
                {row.confirmed_at && (
                  <Link href={`/api/public-submissions/${row.id}/receipt`} download>
                    Receipt (PDF)
                  </Link>
                )}
              </Stack>
            )}
          </ListItem>
        ))}
      </List>
      <Pagination rowsPerPageOptions={PAGE_SIZES} />
    </>
  );
}
