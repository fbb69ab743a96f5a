/** `/reports/task-performance`: tasks done by type per person or team per period, due, overdue and completion rate. */
import { Title } from 'react-admin';
import { BarChart } from '@mui/x-charts/BarChart';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ReportTable, type Column } from './ReportTable';
import { CsvButton, DateFilter, ErrorNote, FigureLinkText, FilterBar, PageHeader, ReportsNav, SelectFilter, formatNumber, formatPercent, thisMonth, useApi, useLiveRefresh, useNarrow, useOptions, useUrlFilters, type FigureLink } from './shared';

type Key = 'calls' | 'meetings' | 'visits' | 'done' | 'due' | 'overdue';
interface Row {
  key: number | null;
  label: string;
  period: string | null;
  calls: number;
  meetings: number;
  visits: number;
  done: number;
  due: number;
  due_done: number;
  overdue: number;
  completion_rate: number | null;
  links?: Record<Key, FigureLink>;
}

export default function TaskPerformancePage() {
  useDocumentTitle('Task performance');
  const month = thisMonth();
  const { values, set, query } = useUrlFilters({ group_by: 'user', interval: 'none', from: month.from, to: month.to, team_id: '' });
  const report = useApi<{ data: Row[]; totals: Row | null }>('/api/reports/task-performance', query);
  useLiveRefresh();
  const narrow = useNarrow();
  const teams = useOptions('teams');
  const rows = report.data?.data ?? [];
  const number = (key: Key) => (row: Row) =>
    row.links ? (
      <FigureLinkText link={row.links[key]} testId={`${key}-${row.key ?? 'none'}-${row.period ?? ''}`}>
        {formatNumber(row[key])}
      </FigureLinkText>
    ) : (
      formatNumber(row[key])
    );
  const columns: Column<Row>[] = [
    { header: values.group_by === 'team' ? 'Team' : 'Person', render: (row) => row.label },
    ...(values.interval !== 'none' ? [{ header: 'Period', align: 'left' as const, render: (row: Row) => row.period ?? '' }] : []),
    { header: 'Calls', render: number('calls') },
    { header: 'Meetings', render: number('meetings') },
    { header: 'Visits', render: number('visits') },
    { header: 'Done', render: number('done') },
    { header: 'Due', render: number('due') },
    { header: 'Overdue', render: number('overdue') },
    { header: 'Completion', render: (row) => formatPercent(row.completion_rate) },
  ];
  // The chart adds the periods up per person or team.
  const people = new Map<string, Row>();
  for (const row of rows) {
    const entry = people.get(row.label);
    if (!entry) people.set(row.label, { ...row });
    else {
      entry.calls += row.calls;
      entry.meetings += row.meetings;
      entry.visits += row.visits;
    }
  }
  const charted = [...people.values()].filter((r) => r.calls + r.meetings + r.visits > 0).slice(0, 20);
  return (
    <>
      <Title title="Task performance" />
      <ReportsNav />
      <PageHeader title="Task performance" subtitle="Tasks done by type, and how many of those due were done." actions={<CsvButton path="/api/reports/task-performance" query={query} />} />
      <FilterBar>
        <SelectFilter label="Group by" value={values.group_by} onChange={(group_by) => set({ group_by })} options={[{ value: 'user', label: 'Person' }, { value: 'team', label: 'Team' }]} allLabel={null} testId="filter-group" />
        <SelectFilter label="Per" value={values.interval} onChange={(interval) => set({ interval })} options={[{ value: 'none', label: 'Whole range' }, { value: 'week', label: 'Week' }, { value: 'month', label: 'Month' }, { value: 'quarter', label: 'Quarter' }]} allLabel={null} minWidth={120} />
        <DateFilter label="From" value={values.from} onChange={(from) => set({ from })} />
        <DateFilter label="To" value={values.to} onChange={(to) => set({ to })} />
        {teams.length > 0 && <SelectFilter label="Team" value={values.team_id} onChange={(team_id) => set({ team_id })} options={teams.map((r) => ({ value: String(r.id), label: r.name }))} allLabel="All teams" />}
      </FilterBar>
      <ErrorNote error={report.error} />
      {charted.length > 0 && (
        <Card variant="outlined" sx={{ mb: 2 }}>
          <CardContent>
            <BarChart
              height={Math.max(200, charted.length * 30 + 80)}
              layout="horizontal"
              yAxis={[{ scaleType: 'band', data: charted.map((r) => r.label), width: narrow ? 100 : 160 }]}
              series={[
                { label: 'Calls', data: charted.map((r) => r.calls), stack: 'done' },
                { label: 'Meetings', data: charted.map((r) => r.meetings), stack: 'done' },
                { label: 'Visits', data: charted.map((r) => r.visits), stack: 'done' },
              ]}
              margin={{ left: 0, right: 10 }}
            />
          </CardContent>
        </Card>
      )}
      {report.data && (
        <ReportTable
          testId="task-performance-table"
          columns={columns}
          rows={rows}
          rowKey={(row) => `${row.key}-${row.period}`}
          footer={report.data.totals ? { ...report.data.totals, key: -1, label: 'Total', period: null, links: undefined } : null}
          empty="No tasks were done or due in this range."
        />
      )}
    </>
  );
}
