/** How a head count (the `head-count` field type) reads: its totals in a list cell, each contractor's counts on a page. */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGetMany } from 'react-admin';
import { HEAD_COUNT_LABELS, type HeadCountRow, headCountTotals } from '../../../common/head-count';
import { recordLabel } from '../label';
import type { DisplayVariant, ValueView } from './displays';
import { formatNumber } from './format';

/** "17 workers: 12 union, 3 non-union". */
export function workersSummary(totals: { workers: number; union_workers: number; non_union_workers: number }): string {
  const { workers, union_workers: union, non_union_workers: nonUnion } = totals;
  return `${formatNumber(workers)} worker${workers === 1 ? '' : 's'}: ${formatNumber(union)} union, ${formatNumber(nonUnion)} non-union`;
}

const CONVERSATIONS = ['talked_to', 'cards_signed', 'contacts_made', 'recruits_signed'] as const;

/** "Talked to 4 · Cards signed 2", the conversations that were had. */
export function conversationsSummary(totals: Record<(typeof CONVERSATIONS)[number], number>): string {
  return CONVERSATIONS.filter((key) => totals[key] > 0)
    .map((key) => `${HEAD_COUNT_LABELS[key]} ${formatNumber(totals[key])}`)
    .join(' · ');
}

function HeadCount({ value, variant }: { value: unknown; variant: DisplayVariant }) {
  const rows = (Array.isArray(value) ? value : []) as HeadCountRow[];
  const contractorIds = [...new Set(rows.map((row) => row.contractor_id))];
  const tradeIds = [...new Set(rows.flatMap((row) => row.trade_ids ?? []))];
  const { data: contractors = [] } = useGetMany(
    'contractors',
    { ids: contractorIds },
    { enabled: variant === 'show' && contractorIds.length > 0 },
  );
  const { data: trades = [] } = useGetMany(
    'trades',
    { ids: tradeIds },
    { enabled: variant === 'show' && tradeIds.length > 0 },
  );
  if (!rows.length)
    return variant === 'show' ? (
      <Typography component="span" variant="body2" color="text.disabled">
        —
      </Typography>
    ) : null;
  if (variant === 'list') return <span>{workersSummary(headCountTotals(rows))}</span>;
  const name = (list: any[], id: number) => recordLabel(list.find((item) => Number(item.id) === id)) || `#${id}`;
  return (
    <Stack spacing={1} data-testid="head-count-display">
      {rows.map((row, index) => (
        <Box key={index}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {name(contractors, row.contractor_id)}
            {row.trade_ids?.length ? (
              <Typography
                component="span"
                variant="body2"
                color="text.secondary"
              >{` · ${row.trade_ids.map((id) => name(trades, id)).join(', ')}`}</Typography>
            ) : null}
          </Typography>
          <Typography variant="body2">{workersSummary(row)}</Typography>
          {conversationsSummary(row) && (
            <Typography variant="body2" color="text.secondary">
              {conversationsSummary(row)}
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  );
}

export const HeadCountValue: ValueView = ({ value, variant }) => <HeadCount value={value} variant={variant} />;
