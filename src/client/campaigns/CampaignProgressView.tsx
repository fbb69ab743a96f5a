/**
 * A campaign's progress as the server computed it (common/campaign-progress.ts): the unit size and where it came
 * from, the cards signed against the 30% showing of interest and the 50% + 1 majority, and a chart of cards over
 * time. Counts only: shown to everyone who reads the campaign.
 */

import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { LineChart } from '@mui/x-charts/LineChart';
import {
  type CampaignProgress,
  type CampaignThreshold,
  type CardsOnDay,
  MAJORITY_LABEL,
  SHOWING_OF_INTEREST_LABEL,
} from '../../common/campaign-progress';
import { formatDate } from '../i18n/dates';
import { useNarrow } from '../layout/useNarrow';
import { formatNumber } from '../records/fieldTypes/describe';

const plural = (count: number, word: string) => `${formatNumber(count)} ${word}${count === 1 ? '' : 's'}`;

/** "12 workers, estimated from the latest head counts" / "40 workers, entered" / "Unknown". */
export function unitSizeText(progress: CampaignProgress): string {
  if (progress.unit_size_source === 'unknown')
    return 'Unit size unknown: no visit has counted the targets yet. Enter it on the campaign.';
  if (progress.unit_size_source === 'estimated')
    return `${plural(progress.unit_size ?? 0, 'worker')} in the unit, estimated from the latest head counts`;
  const estimate =
    progress.estimated_unit_size !== null && progress.estimated_unit_size !== progress.unit_size
      ? ` (head counts suggest ${formatNumber(progress.estimated_unit_size)})`
      : '';
  return `${plural(progress.unit_size ?? 0, 'worker')} in the unit, as entered${estimate}`;
}

function thresholdText(threshold: CampaignThreshold): string {
  if (threshold.needed === null) return 'needs the unit size';
  if (threshold.reached) return `reached (${formatNumber(threshold.needed)} needed)`;
  return `${formatNumber(threshold.remaining ?? 0)} more of ${formatNumber(threshold.needed)}`;
}

/** The cards as a bar, with a mark at each threshold. */
function ProgressBar({ progress }: { progress: CampaignProgress }) {
  const unit = progress.unit_size ?? 0;
  const percent = progress.share === null ? 0 : Math.min(100, progress.share * 100);
  const marks =
    unit > 0
      ? ([
          ['30%', progress.showing_of_interest.needed],
          ['50% + 1', progress.majority.needed],
        ] as const)
      : [];
  return (
    // Room above the bar for the marks' labels (padding: the Stack around sets its children's margins).
    <Box sx={{ pt: 3.5, pb: 1 }}>
      <Box
        sx={{ position: 'relative', height: 14, borderRadius: 7, bgcolor: 'action.hover' }}
        role="img"
        aria-label={
          progress.share === null ? 'Progress unknown' : `${Math.round(progress.share * 100)}% of the unit signed`
        }
      >
        <Box
          sx={{
            position: 'absolute',
            inset: 0,
            width: `${percent}%`,
            borderRadius: 7,
            bgcolor: progress.majority.reached ? 'success.main' : 'primary.main',
          }}
        />
        {marks.map(([label, needed]) => (
          <Box
            key={label}
            sx={{
              position: 'absolute',
              top: -20,
              bottom: -4,
              left: `${Math.min(100, ((needed ?? 0) / unit) * 100)}%`,
              borderLeft: 2,
              borderColor: 'text.primary',
            }}
          >
            <Typography
              variant="caption"
              sx={{ position: 'absolute', top: -2, left: 4, whiteSpace: 'nowrap', lineHeight: 1 }}
            >
              {label}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function ThresholdLine({ label, threshold, testId }: { label: string; threshold: CampaignThreshold; testId: string }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center' }}
      data-testid={testId}
      data-reached={threshold.reached}
    >
      {threshold.reached ? <CheckCircleIcon color="success" fontSize="small" /> : <Box sx={{ width: 20 }} />}
      <Typography>
        <Box component="span" sx={{ fontWeight: 600 }}>
          {label}:
        </Box>{' '}
        <Box component="span" sx={{ color: threshold.reached ? 'success.main' : 'text.secondary' }}>
          {thresholdText(threshold)}
        </Box>
      </Typography>
    </Stack>
  );
}

export function CampaignProgressView({ progress, compact = false }: { progress: CampaignProgress; compact?: boolean }) {
  return (
    <Stack spacing={0.75} data-testid="campaign-progress">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography
          variant={compact ? 'h6' : 'h5'}
          component="p"
          sx={{ fontWeight: 700 }}
          data-testid="campaign-cards-count"
        >
          {plural(progress.cards, 'card')} signed
        </Typography>
        {progress.share !== null && <Chip size="small" label={`${Math.round(progress.share * 100)}% of the unit`} />}
      </Stack>
      <Typography variant="body2" color="text.secondary" data-testid="campaign-unit-size">
        {unitSizeText(progress)}
      </Typography>
      {progress.unit_size ? <ProgressBar progress={progress} /> : null}
      <ThresholdLine
        label={SHOWING_OF_INTEREST_LABEL}
        threshold={progress.showing_of_interest}
        testId="threshold-showing"
      />
      <ThresholdLine label={MAJORITY_LABEL} threshold={progress.majority} testId="threshold-majority" />
    </Stack>
  );
}

/**
 * The days the chart draws: from the campaign's first day (its start date, or the day it was made) at no card, each
 * day a card was signed, and today, so that it shows a line from the first day on, cards or not.
 */
export function chartDays(days: readonly CardsOnDay[], start: string | null, today: string): CardsOnDay[] {
  const points = [...days];
  const first = start && (!points.length || start < points[0]!.day) ? start : null;
  if (first) points.unshift({ day: first, cards: 0, total: 0 });
  const last = points.at(-1);
  if (!last) return [{ day: today, cards: 0, total: 0 }];
  if (last.day < today) points.push({ day: today, cards: 0, total: last.total });
  return points;
}

/** Cards signed over time: the running total by day from the campaign's first day, with the two thresholds as lines. */
export function CardsOverTimeChart({
  days: signed,
  progress,
  start,
}: {
  days: readonly CardsOnDay[];
  progress: CampaignProgress;
  /** The campaign's first day (`YYYY-MM-DD`). */
  start: string | null;
}) {
  const narrow = useNarrow();
  const days = chartDays(signed, start, localDay(new Date()));
  // The thresholds are reference lines, drawn across the chart however few days it has (a line series of one point
  // would be a dot).
  const thresholds = [
    { label: '30% showing', needed: progress.showing_of_interest.needed, color: '#ef6c00' },
    { label: 'Majority', needed: progress.majority.needed, color: '#2e7d32' },
  ].filter((line): line is { label: string; needed: number; color: string } => line.needed !== null);
  const top = Math.max(1, ...days.map((d) => d.total), ...thresholds.map((line) => line.needed));
  return (
    <Box data-testid="cards-chart" aria-label="Cards signed over time">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Cards over time
      </Typography>
      {!signed.length && (
        <Typography color="text.secondary" data-testid="cards-chart-empty">
          No card signed yet.
        </Typography>
      )}
      <LineChart
        height={narrow ? 240 : 300}
        xAxis={[{ scaleType: 'point', data: days.map((d) => formatDate(`${d.day}T12:00:00Z`)) }]}
        yAxis={[{ min: 0, max: Math.ceil(top * 1.1), tickMinStep: 1 }]}
        series={[
          {
            label: 'Cards signed',
            data: days.map((d) => d.total),
            color: '#1565c0',
            valueFormatter: (v: number | null) => formatNumber(v ?? 0),
          },
        ]}
        margin={{ left: 10, right: 10 }}
      >
        {thresholds.map((line) => (
          <ChartsReferenceLine
            key={line.label}
            y={line.needed}
            label={`${line.label}: ${formatNumber(line.needed)}`}
            labelAlign="start"
            lineStyle={{ stroke: line.color, strokeDasharray: '6 4' }}
            labelStyle={{ fill: line.color, fontSize: 12 }}
          />
        ))}
      </LineChart>
    </Box>
  );
}

/** A day where the person is, as `YYYY-MM-DD`. */
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
