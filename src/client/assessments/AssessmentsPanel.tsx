/**
 * The Assessments tab of a campaign or a site: its people by assessment (each level with the administrator's name and
 * its people, then those not assessed), the leaders and the committee, and the chart of the levels over time
 * (GET /api/assessments/summary, docs/conversations.md "Assessments").
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate } from '../i18n/dates';
import { useLiveRefresh } from '../insights/useInsights';
import { useNarrow } from '../layout/useNarrow';
import { formatNumber } from '../records/fieldTypes/describe';
import { useAppDataProvider } from '../records/hooks';

interface AssessedPerson {
  type: 'contact' | 'recruit' | 'member';
  id: number;
  name: string;
  assessment: string | null;
  is_leader: boolean;
  on_committee: boolean;
}

interface Summary {
  total: number;
  leaders: number;
  committee: number;
  levels: Array<{ slug: string | null; name: string; color: string | null; count: number; people: AssessedPerson[] }>;
  over_time: Array<{ day: string; counts: Record<string, number> }>;
}

/** The levels' colours when the administrator gave none: 1 (leader) green to 5 (opposed) red. */
const DEFAULT_COLORS: Record<string, string> = {
  '1': '#1b5e20',
  '2': '#66bb6a',
  '3': '#9e9e9e',
  '4': '#ef6c00',
  '5': '#c62828',
};
const colorOf = (level: { slug: string | null; color: string | null }) =>
  level.color ?? (level.slug ? DEFAULT_COLORS[level.slug] : undefined) ?? '#607d8b';

const counted = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

export function AssessmentsPanel({ scope }: { scope: { campaign_id: number } | { site_id: number } }) {
  useLiveRefresh();
  const dataProvider = useAppDataProvider();
  const [key, id] = 'campaign_id' in scope ? ['campaign_id', scope.campaign_id] : ['site_id', scope.site_id];
  const { data, isPending, error } = useQuery({
    // Under the people's resources, so a change of anyone's assessment refreshes it.
    queryKey: ['contacts', 'assessments', key, id],
    queryFn: ({ signal }) => dataProvider.assessmentSummary<Summary>(scope, signal),
  });
  const summary = data;
  if (error) return <Typography color="error">The assessments could not be read: {error.message}</Typography>;
  if (isPending || !summary) return null;
  return (
    <Stack spacing={3} data-testid="assessments-panel">
      <Typography>
        {summary.total === 0
          ? 'No one here yet: the contacts, recruits and members of its contractors and sites are counted.'
          : `${counted(summary.total, 'person', 'people')} · ${counted(summary.leaders, 'leader', 'leaders')} · ${formatNumber(summary.committee)} on the committee`}
      </Typography>
      <AssessmentsChart summary={summary} />
      <Stack spacing={2}>
        {summary.levels
          .filter((level) => level.count > 0)
          .map((level) => (
            <Box key={level.slug ?? 'none'} data-testid={`assessment-level-${level.slug ?? 'none'}`}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                <Box
                  component="span"
                  sx={{
                    display: 'inline-block',
                    width: 12,
                    height: 12,
                    borderRadius: '50%',
                    bgcolor: colorOf(level),
                    mr: 1,
                  }}
                />
                {level.slug ? `${level.slug} ${level.name}` : level.name} ({formatNumber(level.count)})
              </Typography>
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                {level.people.map((person) => (
                  <Box component="li" key={`${person.type}-${person.id}`}>
                    <Chip
                      component={RouterLink}
                      to={`/${person.type}s/${person.id}/show?tab=timeline`}
                      clickable
                      size="small"
                      variant="outlined"
                      label={`${person.name}${person.is_leader ? ' · leader' : ''}${person.on_committee ? ' · committee' : ''}`}
                    />
                  </Box>
                ))}
              </Box>
            </Box>
          ))}
      </Stack>
    </Stack>
  );
}

/** The people at each level over time: a stacked bar a day a change was recorded, and today (a bar even on day one). */
function AssessmentsChart({ summary }: { summary: Summary }) {
  const narrow = useNarrow();
  const levels = summary.levels.filter((level) => level.slug !== null);
  if (!levels.some((level) => summary.over_time.some((point) => point.counts[level.slug!])))
    return (
      <Typography color="text.secondary">No one assessed yet: the chart starts with the first assessment.</Typography>
    );
  return (
    <Box data-testid="assessments-chart" aria-label="Assessments over time">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Assessments over time
      </Typography>
      <BarChart
        height={narrow ? 240 : 300}
        xAxis={[{ scaleType: 'band', data: summary.over_time.map((point) => formatDate(`${point.day}T12:00:00Z`)) }]}
        yAxis={[{ min: 0, tickMinStep: 1 }]}
        series={levels.map((level) => ({
          label: `${level.slug} ${level.name}`,
          data: summary.over_time.map((point) => point.counts[level.slug!] ?? 0),
          color: colorOf(level),
          stack: 'people',
          valueFormatter: (v: number | null) => formatNumber(v ?? 0),
        }))}
        margin={{ left: 10, right: 10 }}
      />
    </Box>
  );
}
