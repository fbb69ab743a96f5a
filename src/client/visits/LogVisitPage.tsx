/**
 * `/visits/create`: "Log a visit", made for a phone on a job site. The generated visit form (RecordCreate: every
 * field of schemas/visit.json, fields administrators added included, and the head count's steppers) with big
 * targets, the site from the URL (`?source={"site_id":5}`), now as the time and the person as who went; once saved,
 * the site's visits.
 */

import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { useGetOne } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { recordLabel } from '../records/label';
import { PHONE_FORM } from '../records/phoneForm';
import RecordCreate, { valuesFromSearch } from '../records/RecordCreate';
import { siteVisitsPath } from './links';

export default function LogVisitPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSession();
  const siteId = valuesFromSearch(location.search).site_id as number | undefined;
  const { data: site } = useGetOne('sites', { id: siteId! }, { enabled: Boolean(siteId) });
  // Minutes are enough for a visit; the form shows the time where the person is.
  const defaults = useMemo(
    () => ({
      visited_at: new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString(),
      ...(user ? { user_ids: [user.id] } : {}),
    }),
    [user],
  );
  return (
    <Box sx={PHONE_FORM}>
      <RecordCreate
        resource="visits"
        defaults={defaults}
        title="Log a visit"
        subtitle={site ? recordLabel(site) : undefined}
        onCreated={(record) => navigate(siteVisitsPath(record.site_id))}
      />
    </Box>
  );
}
