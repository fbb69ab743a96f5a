/** `/reports/classifications`: members, stewards and contacts per classification or classification type. */
import { Title } from 'react-admin';
import { BarChart } from '@mui/x-charts/BarChart';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ReportTable, type Column } from './ReportTable';
import { CsvButton, DateFilter, ErrorNote, FigureLinkText, FilterBar, PageHeader, ReportsNav, SelectFilter, formatNumber, useApi, useLiveRefresh, useNarrow, useOptions, useUrlFilters, type FigureLink } from './shared';

interface Row {
  key: number | null;
  label: string;
  classification_type: string | null;
  members: number | null;
  stewards: number | null;
  contacts: number | null;
  links?: Record<'members' | 'stewards' | 'contacts', FigureLink | null>;
}

export default function ClassificationsReportPage() {
  useDocumentTitle('Classifications report');
  const { values, set, query } = useUrlFilters({ group_by: 'classification', union_id: '', trade_id: '', team_id: '', from: '', to: '' });
  const report = useApi<{ data: Row[]; totals: Omit<Row, 'key' | 'label' | 'classification_type'>; meta: { contacts_classified: boolean } }>('/api/reports/classifications', query);
  useLiveRefresh();
  const narrow = useNarrow();
  const unions = useOptions('unions');
  const trades = useOptions('trades');
  const teams = useOptions('teams');
  const rows = report.data?.data ?? [];
  const byType = values.group_by === 'classification_type';
  const number = (key: 'members' | 'stewards' | 'contacts') => (row: Row) =>
    row.links ? (
      <FigureLinkText link={row.links[key]} testId={`${key}-${row.key ?? 'none'}`}>
        {formatNumber(row[key])}
      </FigureLinkText>
    ) : (
      formatNumber(row[key])
    );
  const columns: Column<Row>[] = [
    { header: byType ? 'Classification type' : 'Classification', render: (row) => row.label },
    ...(byType ? [] : [{ header: 'Type', align: 'left' as const, render: (row: Row) => row.classification_type ?? '' }]),
    { header: 'Members', render: number('members') },
    { header: 'Stewards', render: number('stewards') },
    // Contacts have a classification only where an administrator added the field to the contact record type.
    ...(report.data?.meta.contacts_classified === false ? [] : [{ header: 'Contacts', render: number('contacts') }]),
  ];
  // The unclassified row stays in the table only: it would dwarf the rest of the chart.
  const charted = rows.filter((r) => r.key !== null && (r.members ?? 0) + (r.contacts ?? 0) > 0);
  return (
    <>
      <Title title="Classifications report" />
      <ReportsNav />
      <PageHeader title="Classifications" subtitle="Members and contacts by classification." actions={<CsvButton path="/api/reports/classifications" query={query} />} />
      <FilterBar>
        <SelectFilter label="Group by" value={values.group_by} onChange={(group_by) => set({ group_by })} options={[{ value: 'classification', label: 'Classification' }, { value: 'classification_type', label: 'Classification type' }]} allLabel={null} testId="filter-group" />
        {unions.length > 0 && <SelectFilter label="Union" value={values.union_id} onChange={(union_id) => set({ union_id })} options={unions.map((r) => ({ value: String(r.id), label: r.name }))} allLabel="All unions" />}
        {trades.length > 0 && <SelectFilter label="Trade" value={values.trade_id} onChange={(trade_id) => set({ trade_id })} options={trades.map((r) => ({ value: String(r.id), label: r.name }))} allLabel="All trades" />}
        {teams.length > 0 && <SelectFilter label="Team" value={values.team_id} onChange={(team_id) => set({ team_id })} options={teams.map((r) => ({ value: String(r.id), label: r.name }))} allLabel="All teams" />}
        <DateFilter label="Added from" value={values.from} onChange={(from) => set({ from })} />
        <DateFilter label="Added to" value={values.to} onChange={(to) => set({ to })} />
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
                { label: 'Members', data: charted.map((r) => r.members ?? 0), stack: 'people' },
                { label: 'Contacts', data: charted.map((r) => r.contacts ?? 0), stack: 'people' },
              ]}
              margin={{ left: 0, right: 10 }}
            />
          </CardContent>
        </Card>
      )}
      {report.data && (
        <ReportTable
          testId="classifications-table"
          columns={columns}
          rows={rows}
          rowKey={(row) => String(row.key)}
          footer={{ key: -1, label: 'Total', classification_type: null, ...report.data.totals }}
        />
      )}
    </>
  );
}
