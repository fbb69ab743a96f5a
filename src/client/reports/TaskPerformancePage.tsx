/** `/reports/task-performance`: tasks done by type per person or team per period, due, overdue and completion rate. */
import type { TaskFigure, TaskPerformanceRow } from '../../common/report-types';
import { FigureLinkText } from '../insights/FigureLinkText';
import { DateFilter, SelectFilter } from '../insights/filters';
import { formatNumber, formatPercent, thisMonth } from '../insights/format';
import { useApi, useLiveRefresh } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { groupPickerWidth, useFieldGroups } from './fieldGroups';
import { GroupNote, ReportPage, StackedBars, TeamFilter } from './ReportPage';

/** A row of the table: the report's rows, and its totals (without links). */
type Row = Omit<TaskPerformanceRow, 'links'> & { links?: TaskPerformanceRow['links'] };

export default function TaskPerformancePage() {
  const month = thisMonth();
  const { values, set, query } = useUrlFilters({
    group_by: 'user',
    interval: 'none',
    from: month.from,
    to: month.to,
    team_id: '',
  });
  const report = useApi<{
    data: TaskPerformanceRow[];
    totals: Omit<Row, 'key' | 'label' | 'period'> | null;
    meta: { group_note: string | null };
  }>('reports/task-performance', query);
  const groups: Array<[string, string]> = [['user', 'Person'], ['team', 'Team'], ...useFieldGroups(null)];
  const groupName = groups.find(([value]) => value === values.group_by)?.[1] ?? 'Person';
  useLiveRefresh();
  const rows = report.data?.data ?? [];
  const number = (key: TaskFigure) => (row: Row) => (
    <FigureLinkText link={row.links?.[key]} testId={row.links && `${key}-${row.key ?? 'none'}-${row.period ?? ''}`}>
      {formatNumber(row[key])}
    </FigureLinkText>
  );
  const figureColumn = (header: string, key: TaskFigure): TableColumn<Row> => ({
    header,
    value: (row) => row[key],
    format: (value) => formatNumber(value as number | null),
    render: number(key),
  });
  const columns: TableColumn<Row>[] = [
    { header: groupName, value: (row) => row.label },
    ...(values.interval !== 'none'
      ? [{ header: 'Period', align: 'left' as const, value: (row: Row) => row.period ?? '' }]
      : []),
    figureColumn('Call tasks', 'calls'),
    figureColumn('Meeting tasks', 'meetings'),
    figureColumn('Visit tasks', 'visits'),
    figureColumn('Done', 'done'),
    figureColumn('Due', 'due'),
    figureColumn('Overdue', 'overdue'),
    {
      header: 'Completion',
      value: (row) => row.completion_rate,
      format: (value) => formatPercent(value as number | null),
    },
  ];
  // The chart adds the periods up per person or team.
  const people = new Map<string, { label: string; calls: number; meetings: number; visits: number }>();
  for (const row of rows) {
    const entry = people.get(row.label) ?? { label: row.label, calls: 0, meetings: 0, visits: 0 };
    entry.calls += row.calls;
    entry.meetings += row.meetings;
    entry.visits += row.visits;
    people.set(row.label, entry);
  }
  const charted = [...people.values()].filter((r) => r.calls + r.meetings + r.visits > 0).slice(0, 20);
  return (
    <ReportPage
      title="Task performance"
      subtitle="Tasks done by type, and how many of those due were done."
      csvPath="/api/reports/task-performance"
      query={query}
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
          <SelectFilter
            label="Per"
            value={values.interval}
            onChange={(interval) => set({ interval })}
            options={[
              { value: 'none', label: 'Whole range' },
              { value: 'week', label: 'Week' },
              { value: 'month', label: 'Month' },
              { value: 'quarter', label: 'Quarter' },
            ]}
            allLabel={null}
            minWidth={120}
          />
          <DateFilter label="From" value={values.from} onChange={(from) => set({ from })} />
          <DateFilter label="To" value={values.to} onChange={(to) => set({ to })} />
          <TeamFilter value={values.team_id} onChange={(team_id) => set({ team_id })} />
        </>
      }
    >
      <StackedBars
        labels={charted.map((r) => r.label)}
        series={[
          { label: 'Call tasks', data: charted.map((r) => r.calls) },
          { label: 'Meeting tasks', data: charted.map((r) => r.meetings) },
          { label: 'Visit tasks', data: charted.map((r) => r.visits) },
        ]}
      />
      {report.data && (
        <TableGrid
          testId="task-performance-table"
          label="Task performance"
          fileName="task-performance"
          columns={columns}
          rows={rows}
          rowKey={(row) => `${row.key}-${row.period}`}
          footer={report.data.totals ? { ...report.data.totals, key: -1, label: 'Total', period: null } : null}
          empty="No tasks were done or due in this range."
        />
      )}
      <GroupNote note={report.data?.meta.group_note} />
    </ReportPage>
  );
}
