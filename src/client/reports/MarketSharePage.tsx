/**
 * `/reports/market-share`: union against non-union work (GET /api/reports/market-share) by number of sites,
 * estimated value or estimated hours, grouped by region, trade, site type, building type, period or a choice field of
 * sites or contractors (fieldGroups.ts); a bar chart and
 * a pie of the totals (a line over time when grouped by period), the table beneath, filters in the URL, CSV export.
 * A number in the table opens the sites behind it.
 */

import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { Link as RouterLink } from 'react-router-dom';
import type { Labour, MarketShareAnswer, MarketShareMeasure, MarketShareRow } from '../../common/report-types';
import { DateFilter, SelectFilter } from '../insights/filters';
import { formatMoney, formatNumber, formatPercent } from '../insights/format';
import { useApi, useLiveRefresh, useOptions } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { useNarrow } from '../layout/useNarrow';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { groupPickerWidth, useFieldGroups } from './fieldGroups';
import { GroupNote, ReportPage, TeamFilter } from './ReportPage';

const GROUPS: ReadonlyArray<[string, string]> = [
  ['region', 'Region'],
  ['trade', 'Trade'],
  ['site_type', 'Site type'],
  ['building_type', 'Building type'],
  ['period', 'Period'],
];

/** The measures of site work, and workers counted at the sites' latest visits (head counts). */
type Measure = MarketShareMeasure | 'workers';
const MEASURES: ReadonlyArray<[Measure, string]> = [
  ['sites', 'Sites'],
  ['value', 'Estimated value'],
  ['hours', 'Estimated hours'],
  ['workers', 'Workers counted'],
];

/** A row's figure of one labour (null: all) in a measure. */
function figure(row: MarketShareRow, labour: Labour | null, measure: Measure): number {
  if (measure === 'workers')
    return labour === null
      ? row.workers.total
      : labour === 'union'
        ? row.workers.union
        : labour === 'non-union'
          ? row.workers.non_union
          : row.workers.unknown;
  const figures =
    labour === null ? row.total : labour === 'union' ? row.union : labour === 'non-union' ? row.non_union : row.unknown;
  return figures[measure];
}
const shareOf = (row: MarketShareRow, measure: Measure) =>
  measure === 'workers' ? row.workers.share : row.share[measure];
// Both 4.5:1 or more on white: the headline figure is text in UNION_COLOR.
const UNION_COLOR = '#1565c0';
const NON_UNION_COLOR = '#c62828';
const UNKNOWN_COLOR = '#9e9e9e';

const show = (measure: Measure, value: number) => (measure === 'value' ? formatMoney(value) : formatNumber(value));

export default function MarketSharePage() {
  const { values, set, query } = useUrlFilters({
    group_by: 'region',
    interval: 'month',
    measure: 'sites',
    from: '',
    to: '',
    region_id: '',
    trade_id: '',
    team_id: '',
    building_type_id: '',
    site_type: '',
  });
  const { measure, ...filters } = query;
  const report = useApi<MarketShareAnswer>('reports/market-share', filters);
  // The CSV of workers counted adds their columns.
  const csvQuery = measure === 'workers' ? { ...filters, measure } : filters;
  useLiveRefresh();
  const narrow = useNarrow();
  const regions = useOptions('regions');
  const trades = useOptions('trades');
  const buildingTypes = useOptions('building-types');
  const siteTypes = useOptions('site-types');
  const m = (values.measure as Measure) || 'sites';
  const rows = report.data?.data ?? [];
  const totals = report.data?.totals;
  // Workers counted: the groups where anyone was counted, most workers first.
  const charted =
    m === 'workers' ? rows.filter((r) => r.workers.total > 0).sort((a, b) => b.workers.total - a.workers.total) : rows;
  const chartRows = charted.slice(0, narrow ? 8 : 15);
  const byPeriod = values.group_by === 'period';
  const groups = [...GROUPS, ...useFieldGroups('site')];
  const groupName = groups.find(([v]) => v === values.group_by)?.[1] ?? '';
  const labourColumn = (header: string, labour: Labour | null): TableColumn<MarketShareRow> => ({
    header,
    value: (row) => figure(row, labour, m),
    format: (value) => show(m, value as number),
    render: (row) => <LabourFigure row={row} labour={labour} measure={m} />,
  });
  const columns: TableColumn<MarketShareRow>[] = [
    { header: groupName, value: (row) => row.label },
    labourColumn('Union', 'union'),
    labourColumn('Non-union', 'non-union'),
    labourColumn('Unknown', 'unknown'),
    labourColumn('All', null),
    // The totals row is the one without a drill-down link.
    {
      header: 'Union share',
      value: (row) => shareOf(row, m),
      format: (value) => formatPercent(value as number | null),
      render: (row) => <span data-testid={row.link ? undefined : 'total-share'}>{formatPercent(shareOf(row, m))}</span>,
    },
  ];

  return (
    <ReportPage
      title="Market share"
      subtitle="Union against non-union work. Unknown work is left out of the share."
      csvPath="/api/reports/market-share"
      query={csvQuery}
      error={report.error}
      filters={
        <>
          <SelectFilter
            label="Group by"
            value={values.group_by}
            onChange={(group_by) => set({ group_by })}
            options={groups.map(([value, label]) => ({ value, label }))}
            allLabel={null}
            testId="filter-group"
            minWidth={groupPickerWidth(values.group_by)}
          />
          {byPeriod && (
            <SelectFilter
              label="Period"
              value={values.interval}
              onChange={(interval) => set({ interval })}
              options={['week', 'month', 'quarter', 'year'].map((v) => ({
                value: v,
                label: v[0].toUpperCase() + v.slice(1),
              }))}
              allLabel={null}
              minWidth={110}
            />
          )}
          <DateFilter
            label="Created from"
            value={values.from}
            onChange={(from) => set({ from })}
            testId="filter-from"
          />
          <DateFilter label="Created to" value={values.to} onChange={(to) => set({ to })} testId="filter-to" />
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
          {trades.length > 0 && (
            <SelectFilter
              label="Trade"
              value={values.trade_id}
              onChange={(trade_id) => set({ trade_id })}
              options={trades.map((r) => ({ value: String(r.id), label: r.name }))}
              allLabel="All trades"
              testId="filter-trade"
            />
          )}
          {siteTypes.length > 0 && (
            <SelectFilter
              label="Site type"
              value={values.site_type}
              onChange={(site_type) => set({ site_type })}
              options={siteTypes.map((r) => ({ value: String((r as any).slug ?? r.id), label: r.name }))}
              allLabel="All types"
              testId="filter-site-type"
            />
          )}
          {buildingTypes.length > 0 && (
            <SelectFilter
              label="Building type"
              value={values.building_type_id}
              onChange={(building_type_id) => set({ building_type_id })}
              options={buildingTypes.map((r) => ({ value: String(r.id), label: r.name }))}
              allLabel="All buildings"
            />
          )}
          <TeamFilter value={values.team_id} onChange={(team_id) => set({ team_id })} />
        </>
      }
    >
      <ToggleButtonGroup
        size="small"
        exclusive
        value={m}
        onChange={(_e, value) => value && set({ measure: value })}
        sx={{ mb: 2 }}
        aria-label="Measure"
      >
        {MEASURES.map(([value, label]) => (
          <ToggleButton key={value} value={value} data-testid={`measure-${value}`}>
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {m === 'workers' && totals && totals.workers.total === 0 && (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="no-workers-counted">
          No workers counted at these sites yet: head counts come from site visits (Log a visit on a site’s page or its
          marker on the map).
        </Typography>
      )}

      {totals && (
        <Grid container spacing={2} sx={{ mb: 2 }}>
          <Grid size={{ xs: 12, md: 8 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {byPeriod ? 'Over time' : `By ${groupName.toLowerCase()}`}
                </Typography>
                {rows.length === 0 ? (
                  <Typography color="text.secondary" sx={{ py: 4 }}>
                    No job sites match these filters.
                  </Typography>
                ) : byPeriod ? (
                  <Box data-testid="market-share-chart">
                    <LineChart
                      height={narrow ? 260 : 320}
                      xAxis={[{ scaleType: 'point', data: rows.map((r) => r.label) }]}
                      series={[
                        {
                          label: 'Union',
                          data: rows.map((r) => figure(r, 'union', m)),
                          color: UNION_COLOR,
                          valueFormatter: (v) => show(m, v ?? 0),
                        },
                        {
                          label: 'Non-union',
                          data: rows.map((r) => figure(r, 'non-union', m)),
                          color: NON_UNION_COLOR,
                          valueFormatter: (v) => show(m, v ?? 0),
                        },
                      ]}
                      margin={{ left: 10, right: 10 }}
                    />
                  </Box>
                ) : (
                  <Box data-testid="market-share-chart">
                    <BarChart
                      height={Math.max(220, chartRows.length * (narrow ? 28 : 32) + 80)}
                      layout="horizontal"
                      yAxis={[{ scaleType: 'band', data: chartRows.map((r) => r.label), width: narrow ? 90 : 150 }]}
                      // Whole steps: a few sites would otherwise get ticks at 0.5, shown rounded as 0 0 1 1.
                      xAxis={[
                        {
                          tickMinStep: 1,
                          valueFormatter: (v: number) => (m === 'value' ? formatMoney(v) : formatNumber(v)),
                        },
                      ]}
                      series={[
                        {
                          label: 'Union',
                          data: chartRows.map((r) => figure(r, 'union', m)),
                          stack: 'work',
                          color: UNION_COLOR,
                          valueFormatter: (v) => show(m, v ?? 0),
                        },
                        {
                          label: 'Non-union',
                          data: chartRows.map((r) => figure(r, 'non-union', m)),
                          stack: 'work',
                          color: NON_UNION_COLOR,
                          valueFormatter: (v) => show(m, v ?? 0),
                        },
                        {
                          label: 'Unknown',
                          data: chartRows.map((r) => figure(r, 'unknown', m)),
                          stack: 'work',
                          color: UNKNOWN_COLOR,
                          valueFormatter: (v) => show(m, v ?? 0),
                        },
                      ]}
                      margin={{ left: 0, right: 10 }}
                    />
                    {rows.length > chartRows.length && (
                      <Typography variant="caption" color="text.secondary">
                        The chart shows the {chartRows.length} largest groups
                        {m === 'workers' ? ' by workers counted' : ''}; the table has all {rows.length}.
                      </Typography>
                    )}
                  </Box>
                )}
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  Union share
                </Typography>
                <Typography
                  variant="h3"
                  component="p"
                  sx={{ fontWeight: 600, color: UNION_COLOR }}
                  data-testid="union-share"
                >
                  {formatPercent(shareOf(totals, m))}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {m === 'workers'
                    ? `of ${show(m, figure(totals, 'union', m) + figure(totals, 'non-union', m))} workers whose status was counted; ${show(m, figure(totals, 'unknown', m))} not noted`
                    : `of ${show(m, figure(totals, 'union', m) + figure(totals, 'non-union', m))} known work; ${show(m, figure(totals, 'unknown', m))} unknown`}
                </Typography>
                <PieChart
                  height={200}
                  series={[
                    {
                      innerRadius: 40,
                      data: [
                        { id: 0, value: figure(totals, 'union', m), label: 'Union', color: UNION_COLOR },
                        { id: 1, value: figure(totals, 'non-union', m), label: 'Non-union', color: NON_UNION_COLOR },
                        { id: 2, value: figure(totals, 'unknown', m), label: 'Unknown', color: UNKNOWN_COLOR },
                      ],
                      valueFormatter: (item) => show(m, item.value),
                    },
                  ]}
                />
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      )}

      {totals && (
        <TableGrid
          testId="market-share-table"
          label="Market share"
          fileName="market-share-shown"
          rowTestId="market-share-row"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.key ?? 'none'}
          footer={{
            ...totals,
            label:
              values.group_by === 'region' || values.group_by === 'trade' || report.data?.meta.group_note
                ? 'Total (each site once)'
                : 'Total',
          }}
          empty={null}
        />
      )}
      <GroupNote note={report.data?.meta.group_note} />
      {report.data?.meta.definition && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          {m === 'workers' ? report.data.meta.workers_definition : report.data.meta.definition}
        </Typography>
      )}
    </ReportPage>
  );
}

/**
 * A figure of one labour (null: all) that opens the sites it counts; the totals row has no link, nor have workers
 * counted (their labour is each worker's, not the site's).
 */
function LabourFigure({ row, labour, measure }: { row: MarketShareRow; labour: Labour | null; measure: Measure }) {
  const figures =
    labour === null ? row.total : labour === 'union' ? row.union : labour === 'non-union' ? row.non_union : row.unknown;
  const value = figure(row, labour, measure);
  if (!row.link || figures.sites === 0 || measure === 'workers') return <>{show(measure, value)}</>;
  const params = new URLSearchParams(row.link);
  if (labour) params.set('labour', labour);
  params.set('label', row.label);
  return (
    <Link
      component={RouterLink}
      to={`/reports/market-share/sites?${params}`}
      underline="hover"
      title={`Open the ${formatNumber(figures.sites)} sites`}
    >
      {show(measure, value)}
    </Link>
  );
}
