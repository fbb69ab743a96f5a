/**
 * The campaigns tab of a contractor's page: each campaign aimed at the contractor with its progress (counts only),
 * opening the campaign; "Start a campaign" for people who may create one.
 */

import CampaignIcon from '@mui/icons-material/Campaign';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCanAccess, useGetList } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { titleCase } from '../i18n/labels';
import type { CampaignRecord } from './CampaignPanel';
import { CampaignProgressView } from './CampaignProgressView';
import { campaignPath, newCampaignPath } from './links';

export function ContractorCampaignsPanel({ contractorId }: { contractorId: number }) {
  const navigate = useNavigate();
  const { canAccess: canStart } = useCanAccess({ resource: 'campaigns', action: 'create' });
  const {
    data = [],
    isPending,
    error,
  } = useGetList<CampaignRecord>('campaigns', {
    filter: { contractor_ids: [contractorId] },
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: 20 },
  });
  return (
    <Stack spacing={2} data-testid="contractor-campaigns">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1 }}>
          Campaigns
        </Typography>
        {canStart && (
          <Button
            variant="outlined"
            startIcon={<CampaignIcon />}
            onClick={() => navigate(newCampaignPath(contractorId))}
            data-testid="start-campaign"
          >
            Start a campaign
          </Button>
        )}
      </Stack>
      {error ? (
        <Typography color="error">The campaigns could not be loaded.</Typography>
      ) : isPending ? null : data.length === 0 ? (
        <Typography color="text.secondary">No campaign aims at this contractor.</Typography>
      ) : (
        data.map((campaign) => (
          <Card key={campaign.id} variant="outlined">
            <CardActionArea onClick={() => navigate(campaignPath(campaign.id))}>
              <CardContent>
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
                  <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
                    {campaign.name}
                  </Typography>
                  {campaign.status ? <Chip size="small" variant="outlined" label={titleCase(campaign.status)} /> : null}
                </Stack>
                {campaign.progress && <CampaignProgressView progress={campaign.progress} compact />}
              </CardContent>
            </CardActionArea>
          </Card>
        ))
      )}
    </Stack>
  );
}
