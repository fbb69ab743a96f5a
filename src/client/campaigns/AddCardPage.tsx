/**
 * `/campaign-cards/create`: a card signed, made for a phone like the visit form. The generated card form
 * (RecordCreate: every field of schemas/campaign-card.json and those administrators added) with the campaign from the
 * URL (`?source={"campaign_id":5}`), today as the day signed and, when the campaign targets one contractor, that
 * contractor as who the worker works for; once saved, back to the campaign's progress.
 */

import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useGetOne } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { PHONE_FORM } from '../records/phoneForm';
import RecordCreate, { valuesFromSearch } from '../records/RecordCreate';
import { campaignPath } from './links';

/** Today where the person is, as a date field holds it. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

export default function AddCardPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  const campaignId = valuesFromSearch(location.search).campaign_id as number | undefined;
  const { data: campaign, isPending } = useGetOne('campaigns', { id: campaignId! }, { enabled: Boolean(campaignId) });
  const contractors: number[] = campaign?.contractor_ids ?? [];
  const contractorId = contractors.length === 1 ? contractors[0] : undefined;
  const defaults = useMemo(
    () => ({ signed_on: today(), ...(contractorId ? { contractor_id: contractorId } : {}) }),
    [contractorId],
  );
  // The form takes its first values once: it waits for the campaign that gives the contractor.
  if (campaignId && isPending)
    return (
      <Box sx={{ ...PHONE_FORM, display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label="Loading the campaign" />
      </Box>
    );
  return (
    <Box sx={PHONE_FORM}>
      <RecordCreate
        resource="campaign-cards"
        defaults={defaults}
        title="Add a card"
        subtitle={campaign?.name}
        onCreated={(record) => {
          // The campaign's progress counts this card: read it again rather than show the count kept from before.
          void queryClient.invalidateQueries({ queryKey: ['campaigns'] });
          void navigate(campaignPath(record.campaign_id));
        }}
      />
    </Box>
  );
}
