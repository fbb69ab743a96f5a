/** `/reports/classifications`: members, stewards and contacts per classification or classification type. */
import type { ClassificationRow } from '../../common/report-types';
import { FigureLinkText } from '../insights/FigureLinkText';
import { DateFilter, SelectFilter } from '../insights/filters';
import { formatNumber } from '../insights/format';
import { useApi, useLiveRefresh, useOptions } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { ReportPage, StackedBars, TeamFilter } from './ReportPage';

/** A row of the table: the report's rows, and its totals (without links). */
type Row = Omit<ClassificationRow, 'links'> & { links?: ClassificationRow['links'] };

export default function ClassificationsReportPage() {
  const { values, set, query } = useUrlFilters({
    group_by: 'classification',
    union_id: '',
    trade_id: '',
    team_id: '',
    from: '',
    to: '',
  });
  const report = useApi<{
    data: ClassificationRow[];
    totals: Pick<Row, 'members' | 'stewards' | 'contacts'>;
    meta: { contacts_classified: boolean };
  }>('reports/classifications', query);
  useLiveRefresh();
  const unions = useOptions('unions');
  const trades = useOptions('trades');
  const rows = report.data?.data ?? [];
  const byType = values.group_by === 'classification_type';
  const number = (key: 'members' | 'stewards' | 'contacts') => (row: Row) => (
    <FigureLinkText link={row.links?.[key]} testId={row.links && `${key}-${row.key ?? 'none'}`}>
      {formatNumber(row[key])}
    </FigureLinkText>
  );
  const columns: TableColumn<Row>[] = [
    { header: byType ? 'Classification type' : 'Classification', value: (row) => row.label },
    ...(byType ? [] : [{ header: 'Type', align: 'left' as const, value: (row: Row) => row.classification_type ?? '' }]),
    {
      header: 'Members',
      value: (row) => row.members,
      format: (value) => formatNumber(value as number | null),
      render: number('members'),
    },
    {
      header: 'Stewards',
      value: (row) => row.stewards,
      format: (value) => formatNumber(value as number | null),
      render: number('stewards'),
    },
    // Contacts have a classification only where an administrator added the field to the contact record type.
    ...(report.data?.meta.contacts_classified === false
      ? []
      : [
          {
            header: 'Contacts',
            value: (row: Row) => row.contacts,
            format: (value: unknown) => formatNumber(value as number | null),
            render: number('contacts'),
          },
        ]),
  ];
  // The unclassified row stays in the table only: it would dwarf the rest of the chart.
  const charted = rows.filter((r) => r.key !== null && (r.members ?? 0) + (r.contacts ?? 0) > 0);
  return (
    <ReportPage
      title="Classifications"
      windowTitle="Classifications report"
      subtitle="Members and contacts by classification."
      csvPath="/api/reports/classifications"
      query={query}
      error={report.error}
      filters={
        <>
          <SelectFilter
            label="Group by"
            value={values.group_by}
            onChange={(group_by) => set({ group_by })}
            options={[
              { value: 'classification', label: 'Classification' },
              { value: 'classification_type', label: 'Classification type' },
            ]}
            allLabel={null}
            testId="filter-group"
          />
          {unions.length > 0 && (
            <SelectFilter
              label="Union"
              value={values.union_id}
              onChange={(union_id) => set({ union_id })}
              options={unions.map((r) => ({ value: String(r.id), label: r.name }))}
              allLabel="All unions"
            />
          )}
          {trades.length > 0 && (
            <SelectFilter
              label="Trade"
              value={values.trade_id}
              onChange={(trade_id) => set({ trade_id })}
              options={trades.map((r) => ({ value: String(r.id), label: r.name }))}
              allLabel="All trades"
            />
          )}
          <TeamFilter value={values.team_id} onChange={(team_id) => set({ team_id })} />
          <DateFilter label="Added from" value={values.from} onChange={(from) => set({ from })} />
          <DateFilter label="Added to" value={values.to} onChange={(to) => set({ to })} />
        </>
      }
    >
      <StackedBars
        labels={charted.map((r) => r.label)}
        series={[
          { label: 'Members', data: charted.map((r) => r.members ?? 0) },
          { label: 'Contacts', data: charted.map((r) => r.contacts ?? 0) },
        ]}
      />
      {report.data && (
        <TableGrid
          testId="classifications-table"
          label="Classifications"
          fileName="classifications"
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.key)}
          footer={{ key: -1, label: 'Total', classification_type: null, ...report.data.totals }}
        />
      )}
    </ReportPage>
  );
}
