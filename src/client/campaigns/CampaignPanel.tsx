/**
 * The progress tab of a campaign's page: its progress and chart of cards over time (counts, for everyone who reads
 * the campaign), then who signed, for those who may see card holders (common/permissions.ts seesCardHolders), with
 * "Add a card".
 */

import AddCardIcon from '@mui/icons-material/AddCard';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCanAccess, useGetList, useRecordContext } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { CampaignProgress, CardsOnDay } from '../../common/campaign-progress';
import { seesCardHolders } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { formatDate } from '../i18n/dates';
import { CampaignProgressView, CardsOverTimeChart } from './CampaignProgressView';
import { addCardPath } from './links';

export interface CampaignRecord {
  id: number;
  name: string;
  status?: string;
  progress?: CampaignProgress;
  cards_over_time?: CardsOnDay[];
  start_date?: string | null;
  created_at?: string;
}

export function CampaignPanel() {
  const campaign = useRecordContext<CampaignRecord>();
  const { user } = useSession();
  if (!campaign?.progress) return null;
  return (
    <Stack spacing={3}>
      <CampaignProgressView progress={campaign.progress} />
      <CardsOverTimeChart
        days={campaign.cards_over_time ?? []}
        progress={campaign.progress}
        start={campaign.start_date ?? (campaign.created_at ? String(campaign.created_at).slice(0, 10) : null)}
      />
      {seesCardHolders(user) ? (
        <CardList campaignId={campaign.id} />
      ) : (
        <Typography color="text.secondary" data-testid="card-holders-hidden">
          Who signed is seen only by people whose role may read cards: you see the counts.
        </Typography>
      )}
    </Stack>
  );
}

interface Card {
  id: number;
  worker_name: string;
  signed_on: string;
}

function CardList({ campaignId }: { campaignId: number }) {
  const navigate = useNavigate();
  const { canAccess: canAdd } = useCanAccess({ resource: 'campaign-cards', action: 'create' });
  const {
    data = [],
    total = 0,
    isPending,
  } = useGetList<Card>('campaign-cards', {
    filter: { campaign_id: campaignId },
    sort: { field: 'signed_on', order: 'DESC' },
    pagination: { page: 1, perPage: 100 },
  });
  return (
    <Stack spacing={1} data-testid="campaign-cards">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1 }}>
          Who signed
        </Typography>
        {canAdd && (
          <Button
            variant="contained"
            size="large"
            startIcon={<AddCardIcon />}
            onClick={() => navigate(addCardPath(campaignId))}
            data-testid="add-card"
          >
            Add a card
          </Button>
        )}
      </Stack>
      {isPending ? null : data.length === 0 ? (
        <Typography color="text.secondary">No card yet.</Typography>
      ) : (
        <List dense disablePadding>
          {data.map((card) => (
            <ListItemButton key={card.id} onClick={() => navigate(`/campaign-cards/${card.id}/show`)} divider>
              <ListItemText
                primary={card.worker_name}
                secondary={`Signed ${formatDate(`${card.signed_on}T12:00:00Z`)}`}
              />
            </ListItemButton>
          ))}
        </List>
      )}
      {total > data.length && (
        <Typography variant="body2">The 100 latest of {total} cards: the Cards list has them all.</Typography>
      )}
    </Stack>
  );
}
