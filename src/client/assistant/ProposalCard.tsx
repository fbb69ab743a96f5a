/** A change the assistant proposes, shown exactly as it will be written, with Approve and Reject. */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAppDataProvider } from '../records/hooks';
import { decide, type Message, type Proposal } from './api';

const TITLES: Record<Proposal['kind'], string> = {
  create_task: 'New task',
  log_note: 'New note',
  update_field: 'Change',
  assign: 'Assignment',
};

export function ProposalCard({
  message,
  onDecided,
  onNavigate,
}: {
  message: Message;
  onDecided: () => void;
  onNavigate?: () => void;
}) {
  const proposal = message.proposal!;
  const dp = useAppDataProvider();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const act = async (decision: 'approve' | 'reject') => {
    setBusy(true);
    try {
      const result = await decide(dp, message.id, decision);
      notify(result.message ?? (decision === 'approve' ? 'Done.' : 'Rejected.'), {
        type: decision === 'approve' ? 'success' : 'info',
      });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      onDecided();
    }
  };
  const status =
    proposal.status === 'approved' ? (
      <Chip size="small" color="success" label="Approved" />
    ) : proposal.status === 'rejected' ? (
      <Chip size="small" label="Rejected" />
    ) : (
      <Chip size="small" color="warning" variant="outlined" label="Waiting for you" />
    );
  return (
    <Card variant="outlined" sx={{ mt: 1 }} data-testid="assistant-proposal">
      <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="subtitle2" sx={{ flex: 1 }}>
            {TITLES[proposal.kind]}
            {proposal.record?.url ? (
              <>
                {' on '}
                <Link component={RouterLink} to={proposal.record.url} onClick={onNavigate}>
                  {proposal.record.label}
                </Link>
              </>
            ) : null}
          </Typography>
          {status}
        </Box>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'minmax(80px, auto) 1fr', columnGap: 1.5, rowGap: 0.5, m: 0 }}
        >
          {proposal.lines.map(([label, before, after]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {before !== null ? (
                  <>
                    <Box component="span" sx={{ textDecoration: 'line-through', color: 'text.secondary' }}>
                      {before}
                    </Box>
                    {' → '}
                  </>
                ) : null}
                {after}
              </Typography>
            </Box>
          ))}
        </Box>
        {proposal.error ? (
          <Typography variant="body2" color="error" sx={{ mt: 1 }}>
            {proposal.error}
          </Typography>
        ) : null}
        {proposal.status === 'approved' && proposal.result ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            Saved as {proposal.result.label ?? `#${proposal.result.id}`}.
          </Typography>
        ) : null}
        {proposal.status === 'pending' ? (
          <Box sx={{ display: 'flex', gap: 1, mt: 1.5 }}>
            <Button variant="contained" size="small" disabled={busy} onClick={() => act('approve')}>
              Approve
            </Button>
            <Button size="small" disabled={busy} onClick={() => act('reject')}>
              Reject
            </Button>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}
