/**
 * `/`: the greeting (first name, time of day), then the figures of GET /api/dashboard/statistics (the person's work
 * against their goals) and GET /api/dashboard/data (job sites by category and status, new this week, the latest
 * imports), for a date range, region and team kept in the URL. Every number opens the list it counts.
 */

import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useMainData, useSession } from '../app/hooks';
import { ErrorNote } from '../insights/ErrorNote';
import { type FigureLink, FigureLinkText, listHref } from '../insights/FigureLinkText';
import { type FigurePart, FigureParts } from '../insights/FigureParts';
import { DateFilter, FilterBar, SelectFilter } from '../insights/filters';
import { formatNumber, thisMonth } from '../insights/format';
import { useApi, useLiveRefresh, useOptions } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { useFirstPaintDone } from '../layout/firstPaint';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { readableReports } from '../reports/catalogue';
import { ReportsNav } from '../reports/ReportsNav';
import { dayPart } from './greeting';
import { GreetingStyles, greetingClasses } from './greetingStyles';

interface Figure {
  key: string;
  label: string;
  value: number;
  goal?: number | null;
  link: FigureLink | null;
  parts?: FigurePart[];
}

interface GroupFigure {
  key: string | number | null;
  label: string;
  value: number;
  color?: string | null;
  link: FigureLink;
}

export default function Dashboard() {
  const { user } = useSession();
  const { features } = useMainData();
  const translate = useTranslate();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const title = translate('app.menu.dashboard');
  useDocumentTitle(title);

  const month = thisMonth();
  const { values, set, query } = useUrlFilters({ from: month.from, to: month.to, region_id: '', team_id: '' });
  const { canAccess: canReport } = useCanAccess({ resource: 'reports', action: 'read' });
  // A team's figures are other people's: only for those who may read reports (the server says so too).
  const { team_id: _team, ...withoutTeam } = query;
  const statsQuery = canReport ? query : withoutTeam;
  const statistics = useApi<{ data: { figures: Figure[]; range: { from: string; to: string } } }>(
    'dashboard/statistics',
    statsQuery,
  );
  const data = useApi<{
    data: {
      figures: Figure[];
      sites_by_type: GroupFigure[];
      sites_by_status: GroupFigure[];
      sites_total: number | null;
      sites_new_week: number | null;
      imports_latest: any[];
    };
  }>('dashboard/data', statsQuery);
  useLiveRefresh();
  const regions = useOptions('regions');
  // A person limited to their turf sees its figures only; the dashboard says which regions those are.
  const turf = useApi<{ data: { limited: boolean; regions: Array<{ id: number; name: string }> } }>('turf').data?.data;
  const teams = useOptions('teams');

  const figures = statistics.data?.data.figures ?? [];
  const site = data.data?.data;
  const siteFigure = (key: string) => site?.figures.find((f) => f.key === key);
  const work = figures.filter((f) => ['calls', 'meetings', 'visits', 'recruits'].includes(f.key));
  const counts = figures.filter((f) => !['calls', 'meetings', 'visits', 'recruits'].includes(f.key));
  // The greeting is the first screen's largest paint: the filters and figures below it render once it has painted
  // (their requests start at once); they only add below it, so nothing moves.
  const painted = useFirstPaintDone();

  return (
    <>
      <Title title={title} />
      <GreetingStyles />
      <Card variant="outlined" className={greetingClasses.card}>
        <CardContent className={greetingClasses.content}>
          <Typography component="h1" variant="h1" data-testid="greeting">
            {translate(`app.greeting.${dayPart(now)}`, { name: user?.first_name ?? '' })}
          </Typography>
          {turf?.limited && (
            <Typography variant="body1" color="text.secondary" sx={{ mt: 1 }} data-testid="your-turf">
              {turf.regions.length
                ? `Your turf: ${turf.regions.map((r) => r.name).join(', ')}`
                : 'No turf is assigned to you yet: ask an administrator to assign you a region.'}
            </Typography>
          )}
        </CardContent>
      </Card>
      {painted && (
        <>
          <FilterBar>
            <DateFilter label="From" value={values.from} onChange={(from) => set({ from })} testId="filter-from" />
            <DateFilter label="To" value={values.to} onChange={(to) => set({ to })} testId="filter-to" />
            {regions.length > 0 && (
              <SelectFilter
                label="Region"
                value={values.region_id}
                onChange={(region_id) => set({ region_id })}
                options={regions.map((r) => ({ value: String(r.id), label: r.name }))}
                allLabel="All regions"
                testId="filter-region"
              />
            )}
            {canReport && teams.length > 0 && (
              <SelectFilter
                label="Team"
                value={values.team_id}
                onChange={(team_id) => set({ team_id })}
                options={teams.map((t) => ({ value: String(t.id), label: t.name }))}
                allLabel="Me"
                testId="filter-team"
              />
            )}
          </FilterBar>
          <ErrorNote error={statistics.error ?? data.error} />

          <Grid container spacing={2} sx={{ mb: 2 }}>
            {counts.map((figure) => (
              <Grid key={figure.key} size={{ xs: 6, sm: 4, md: 3 }}>
                <CountCard figure={figure} />
              </Grid>
            ))}
            {siteFigure('sites_total') && (
              <Grid size={{ xs: 6, sm: 4, md: 3 }}>
                <CountCard figure={siteFigure('sites_total')!} />
              </Grid>
            )}
            {siteFigure('sites_new_week') && (
              <Grid size={{ xs: 6, sm: 4, md: 3 }}>
                <CountCard figure={{ ...siteFigure('sites_new_week')!, label: 'New sites this week' }} />
              </Grid>
            )}
          </Grid>

          {work.length > 0 && (
            <Card variant="outlined" sx={{ mb: 2 }}>
              <CardContent>
                <Typography component="h2" variant="h6" gutterBottom>
                  {values.team_id ? 'The team against its goals' : 'Your work against your goals'}
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                    {statistics.data?.data.range.from} – {statistics.data?.data.range.to}
                  </Typography>
                </Typography>
                <Grid container spacing={2}>
                  {work.map((figure) => (
                    <Grid key={figure.key} size={{ xs: 12, sm: 6, md: 3 }}>
                      <GoalMeter figure={figure} />
                    </Grid>
                  ))}
                </Grid>
              </CardContent>
            </Card>
          )}

          {site && site.sites_total !== null && (
            <Grid container spacing={2} sx={{ mb: 2 }}>
              <Grid size={{ xs: 12, md: 6 }}>
                <GroupCard title="Job sites by category" rows={site.sites_by_type} testId="sites-by-type" />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <GroupCard title="Job sites by status" rows={site.sites_by_status} testId="sites-by-status" />
              </Grid>
            </Grid>
          )}

          {readableReports(user, features).length > 0 && (
            <Card variant="outlined" sx={{ mb: 2 }} data-testid="dashboard-reports">
              <CardContent>
                <Typography component="h2" variant="h6" gutterBottom>
                  Reports
                </Typography>
                <ReportsNav />
              </CardContent>
            </Card>
          )}

          {site && site.imports_latest.length > 0 && (
            <Card variant="outlined">
              <CardContent>
                <Typography component="h2" variant="h6">
                  Latest imports
                </Typography>
                <List dense>
                  {site.imports_latest.map((item) => (
                    <ListItem key={item.id} component={RouterLink} to={item.link} sx={{ color: 'inherit' }}>
                      <ListItemText
                        primary={item.name}
                        secondary={item.created_at ? new Date(item.created_at).toLocaleString() : null}
                      />
                      {item.status && (
                        <Chip
                          size="small"
                          label={item.status}
                          color={
                            item.status === 'complete' ? 'success' : item.status === 'failed' ? 'error' : 'default'
                          }
                        />
                      )}
                    </ListItem>
                  ))}
                </List>
              </CardContent>
            </Card>
          )}
        </>
      )}
    </>
  );
}

function CountCard({ figure }: { figure: Figure }) {
  const href = listHref(figure.link);
  const body = (
    <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {figure.label}
      </Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600 }} data-testid={`figure-${figure.key}`}>
        {formatNumber(figure.value)}
      </Typography>
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%', '&:hover': href ? { borderColor: 'primary.main' } : undefined }}>
      {href ? (
        <Box
          component={RouterLink}
          to={href}
          sx={{ color: 'inherit', textDecoration: 'none', display: 'block', height: '100%' }}
          data-testid={`figure-link-${figure.key}`}
        >
          {body}
        </Box>
      ) : (
        body
      )}
    </Card>
  );
}

function GoalMeter({ figure }: { figure: Figure }) {
  const goal = figure.goal ?? null;
  const progress = goal ? Math.min(100, (figure.value / goal) * 100) : 0;
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <Typography variant="subtitle2" component="h3">
          {figure.label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          <FigureLinkText link={figure.link} testId={`figure-${figure.key}`}>
            {formatNumber(figure.value)}
          </FigureLinkText>
          {goal !== null ? ` of ${formatNumber(goal)}` : ' (no goal)'}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={progress}
        color={progress >= 100 ? 'success' : 'primary'}
        sx={{ height: 8, borderRadius: 4, mt: 0.5 }}
        aria-label={`${figure.label}: ${figure.value}${goal !== null ? ` of ${goal}` : ''}`}
      />
      <FigureParts parts={figure.parts} testId={`figure-parts-${figure.key}`} />
    </Box>
  );
}

function GroupCard({ title, rows, testId }: { title: string; rows: GroupFigure[]; testId: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography component="h2" variant="h6" gutterBottom>
          {title}
        </Typography>
        {rows.length === 0 && <Typography color="text.secondary">No job sites yet.</Typography>}
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid={testId}>
          {rows.map((row) => (
            <Box component="li" key={String(row.key)} sx={{ mb: 1 }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                <Typography variant="body2" noWrap>
                  {row.label}
                </Typography>
                <FigureLinkText link={row.link} testId={`${testId}-${row.key ?? 'none'}`}>
                  {formatNumber(row.value)}
                </FigureLinkText>
              </Box>
              <Box sx={{ height: 6, borderRadius: 3, bgcolor: 'action.hover', overflow: 'hidden' }}>
                <Box
                  sx={{ height: '100%', width: `${(row.value / max) * 100}%`, bgcolor: row.color ?? 'primary.main' }}
                />
              </Box>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
