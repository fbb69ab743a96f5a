/**
 * The visits tab of a site's page: "Log a visit", the latest head count by trade (from the most recent visit that
 * counted anyone), and the visit history, newest first, each opening the visit.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useGetList, useGetMany } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { type HeadCountRow, headCountByTrade, headCountTotals } from '../../common/head-count';
import { formatDate, formatDateTime } from '../i18n/dates';
import { useWaitingCreates } from '../offline/useOffline';
import { formatNumber } from '../records/fieldTypes/describe';
import { conversationsSummary, workersSummary } from '../records/fieldTypes/HeadCountDisplay';
import { recordLabel } from '../records/label';
import { LogVisitButton } from './LogVisitButton';

interface Visit {
  id: number;
  visited_at: string;
  user_ids?: number[];
  notes?: string | null;
  head_counts?: HeadCountRow[];
}

const PAGE = 10;

export function SiteVisitsPanel({ siteId }: { siteId: number }) {
  const [shown, setShown] = useState(PAGE);
  const {
    data = [],
    total = 0,
    isPending,
    error,
  } = useGetList<Visit>('visits', {
    filter: { site_id: siteId },
    sort: { field: 'visited_at', order: 'DESC' },
    pagination: { page: 1, perPage: shown },
  });
  const latest = data.find((visit) => visit.head_counts?.length);
  const waiting = useWaitingCreates('visits', { site_id: siteId }).length;
  return (
    <Stack spacing={2} data-testid="site-visits">
      {waiting > 0 && (
        <Typography variant="body2" sx={{ color: 'warning.dark' }} data-testid="visits-waiting">
          {waiting} visit{waiting === 1 ? '' : 's'} saved on this device, waiting to be sent.
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1 }}>
          {total ? `${formatNumber(total)} visit${total === 1 ? '' : 's'}` : 'Visits'}
        </Typography>
        <LogVisitButton siteId={siteId} size="large" />
      </Stack>
      {error ? (
        <Typography color="error">The visits could not be loaded.</Typography>
      ) : isPending ? null : data.length === 0 ? (
        <Typography color="text.secondary">
          No visit logged yet. Log one when you go to the site: who is working there, for which contractor, and how many
          are union.
        </Typography>
      ) : (
        <>
          {latest ? (
            <LatestHeadCount visit={latest} />
          ) : (
            <Typography color="text.secondary">No head count taken yet.</Typography>
          )}
          <VisitHistory visits={data} />
          {data.length < total && (
            <Button onClick={() => setShown(shown + PAGE)} sx={{ alignSelf: 'flex-start' }}>
              Show older visits
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}

function LatestHeadCount({ visit }: { visit: Visit }) {
  const rows = visit.head_counts ?? [];
  const byTrade = headCountByTrade(rows);
  const tradeIds = byTrade.flatMap((group) => (group.trade_id === null ? [] : [group.trade_id]));
  const { data: trades = [] } = useGetMany('trades', { ids: tradeIds }, { enabled: tradeIds.length > 0 });
  const all = headCountTotals(rows);
  const share = (union: number, nonUnion: number) =>
    union + nonUnion > 0 ? `${Math.round((union / (union + nonUnion)) * 100)}%` : '—';
  const contractors = new Set(rows.map((row) => row.contractor_id)).size;
  return (
    <Card variant="outlined" data-testid="latest-head-count">
      <Box sx={{ px: 2, pt: 1.5 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Latest head count by trade
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDate(visit.visited_at)}: {workersSummary(all)} at {contractors} contractor
          {contractors === 1 ? '' : 's'}
        </Typography>
      </Box>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Latest head count by trade" sx={{ '& th, & td': { px: { xs: 1, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>Trade</TableCell>
              <TableCell align="right">Workers</TableCell>
              <TableCell align="right">Union</TableCell>
              <TableCell align="right">Non-union</TableCell>
              <TableCell align="right">Union share</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {byTrade.map(({ trade_id, totals }) => (
              <TableRow key={trade_id ?? 'none'} data-testid="head-count-trade">
                <TableCell>
                  {trade_id === null
                    ? 'No trade given'
                    : recordLabel(trades.find((trade) => Number(trade.id) === trade_id)) || `#${trade_id}`}
                </TableCell>
                <TableCell align="right">{formatNumber(totals.workers)}</TableCell>
                <TableCell align="right">{formatNumber(totals.union_workers)}</TableCell>
                <TableCell align="right">{formatNumber(totals.non_union_workers)}</TableCell>
                <TableCell align="right">{share(totals.union_workers, totals.non_union_workers)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      {byTrade.length > 1 && rows.some((row) => (row.trade_ids?.length ?? 0) > 1) && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, pb: 1 }}>
          A contractor counted for several trades counts in each of them.
        </Typography>
      )}
    </Card>
  );
}

function VisitHistory({ visits }: { visits: Visit[] }) {
  const navigate = useNavigate();
  const userIds = [...new Set(visits.flatMap((visit) => visit.user_ids ?? []))];
  const { data: users = [] } = useGetMany('users', { ids: userIds }, { enabled: userIds.length > 0 });
  const names = (ids: number[] = []) =>
    ids
      .map((id) => recordLabel(users.find((user) => Number(user.id) === id)))
      .filter(Boolean)
      .join(', ');
  return (
    <Card variant="outlined">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, px: 2, pt: 1.5 }}>
        Visit history
      </Typography>
      <List data-testid="visit-history" aria-label="Visit history">
        {visits.map((visit) => {
          const rows = visit.head_counts ?? [];
          const totals = headCountTotals(rows);
          const talk = conversationsSummary(totals);
          return (
            <ListItemButton
              key={visit.id}
              onClick={() => navigate(`/visits/${visit.id}/show`)}
              divider
              sx={{ display: 'block', py: 1.25 }}
              data-testid="visit-history-item"
            >
              <Typography variant="body1" sx={{ fontWeight: 600 }}>
                {formatDateTime(visit.visited_at)}
                {names(visit.user_ids) && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {` · ${names(visit.user_ids)}`}
                  </Typography>
                )}
              </Typography>
              <Typography variant="body2">{rows.length ? workersSummary(totals) : 'No head count'}</Typography>
              {talk && (
                <Typography variant="body2" color="text.secondary">
                  {talk}
                </Typography>
              )}
              {visit.notes && (
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {visit.notes}
                </Typography>
              )}
            </ListItemButton>
          );
        })}
      </List>
    </Card>
  );
}
