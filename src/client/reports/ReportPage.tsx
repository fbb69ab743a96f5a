/**
 * The frame of a report screen: its title (page and window), the links between the reports, the CSV export of what
 * is shown, the filters (wrapping on a phone), an error, then the report itself. Also the pieces several reports use:
 * the team filter and a chart of horizontal stacked bars.
 */

import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { ReactNode } from 'react';
import { Title } from 'react-admin';
import { ErrorNote } from '../insights/ErrorNote';
import { FilterBar, SelectFilter } from '../insights/filters';
import { useOptions } from '../insights/useInsights';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useNarrow } from '../layout/useNarrow';
import { CsvButton } from './CsvButton';
import { ReportsNav } from './ReportsNav';

export function ReportPage({
  title,
  windowTitle = title,
  subtitle,
  csvPath,
  query,
  filters,
  error,
  children,
}: {
  title: string;
  windowTitle?: string;
  subtitle: string;
  /** The report's endpoint; the CSV button asks it for `format=csv` with `query`. */
  csvPath: string;
  query: Record<string, string>;
  filters: ReactNode;
  error: unknown;
  children: ReactNode;
}) {
  useDocumentTitle(windowTitle);
  return (
    <>
      <Title title={windowTitle} />
      <ReportsNav />
      <PageHeader title={title} subtitle={subtitle} actions={<CsvButton path={csvPath} query={query} />} />
      <FilterBar>{filters}</FilterBar>
      <ErrorNote error={error} />
      {children}
    </>
  );
}

/** "Team": shown only to a person who may read teams. */
export function TeamFilter({ value, onChange }: { value: string; onChange: (teamId: string) => void }) {
  const teams = useOptions('teams');
  if (teams.length === 0) return null;
  return (
    <SelectFilter
      label="Team"
      value={value}
      onChange={onChange}
      options={teams.map((r) => ({ value: String(r.id), label: r.name }))}
      allLabel="All teams"
    />
  );
}

/** One bar per label, its series stacked; nothing when there is no label. */
export function StackedBars({
  labels,
  series,
}: {
  labels: string[];
  series: Array<{ label: string; data: number[] }>;
}) {
  const narrow = useNarrow();
  if (labels.length === 0) return null;
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <BarChart
          height={Math.max(200, labels.length * 30 + 80)}
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: labels, width: narrow ? 100 : 160 }]}
          series={series.map((s) => ({ ...s, stack: 'all' }))}
          margin={{ left: 0, right: 10 }}
        />
      </CardContent>
    </Card>
  );
}

/** Under a table grouped so that a record can count in several groups: says so (the server's `meta.group_note`). */
export function GroupNote({ note }: { note: string | null | undefined }) {
  if (!note) return null;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }} data-testid="group-note">
      {note}
    </Typography>
  );
}
