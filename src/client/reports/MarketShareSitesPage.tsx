/**
 * `/reports/market-share/sites?...`: the job sites behind one number of the market-share report (its group and
 * labour), from GET /api/reports/market-share/sites; its total is the number that was clicked. Each site opens.
 */

import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TablePagination from '@mui/material/TablePagination';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { TYPE_LABELS } from '../i18n/labels';
import { ErrorNote } from '../insights/ErrorNote';
import { formatMoney, formatNumber } from '../insights/format';
import { useApi } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';

const LABOUR_NAMES: Record<string, string> = { union: 'Union', 'non-union': 'Non-union', unknown: 'Unknown' };

interface DrillDownSite {
  id: number;
  name: string;
  type: string;
  city: string | null;
  estimated_value: number | null;
  estimated_hours: number | null;
  labour: string;
}

const COLUMNS: TableColumn<DrillDownSite>[] = [
  {
    header: 'Job site',
    value: (site) => site.name,
    render: (site) => (
      <Link component={RouterLink} to={`/sites/${site.id}/show`} underline="hover">
        {site.name}
      </Link>
    ),
  },
  { header: 'Type', align: 'left', value: (site) => TYPE_LABELS[site.type] ?? site.type },
  { header: 'City', align: 'left', value: (site) => site.city ?? '' },
  {
    header: 'Estimated value',
    value: (site) => site.estimated_value,
    format: (value) => formatMoney(value as number | null),
  },
  {
    header: 'Estimated hours',
    value: (site) => site.estimated_hours,
    format: (value) => formatNumber(value as number | null),
  },
  { header: 'Counts as', align: 'left', value: (site) => LABOUR_NAMES[site.labour] ?? site.labour },
];

const siteKey = (site: DrillDownSite) => String(site.id);

export default function MarketShareSitesPage() {
  useDocumentTitle('Market share: sites');
  const { values, set, query } = useUrlFilters({ page: '1', per_page: '25' } as Record<string, string>);
  const { label, ...filters } = query;
  const list = useApi<{ data: DrillDownSite[]; meta: { total: number; current_page: number; per_page: number } }>(
    'reports/market-share/sites',
    filters,
  );
  const back = new URLSearchParams(filters);
  for (const key of ['key', 'labour', 'page', 'per_page']) back.delete(key);
  const title = `${values.labour ? `${LABOUR_NAMES[values.labour] ?? values.labour} work` : 'All work'}${label ? `: ${label}` : ''}`;
  return (
    <>
      <Title title="Market share" />
      <PageHeader
        title={title}
        subtitle={list.data ? `${formatNumber(list.data.meta.total)} job sites` : undefined}
        actions={
          <Button
            component={RouterLink}
            to={`/reports/market-share?${back}`}
            size="small"
            startIcon={<ArrowBackIcon />}
          >
            Market share
          </Button>
        }
      />
      <ErrorNote error={list.error} />
      <TableGrid
        testId="drill-down-table"
        label="Job sites"
        fileName="market-share-sites"
        columns={COLUMNS}
        rows={list.data?.data ?? []}
        rowKey={siteKey}
        empty={list.data ? 'No job sites.' : null}
        below={
          list.data && (
            <TablePagination
              component="div"
              count={list.data.meta.total}
              page={Number(values.page) - 1}
              rowsPerPage={Number(values.per_page)}
              rowsPerPageOptions={[25, 50, 100]}
              onPageChange={(_e, page) => set({ page: String(page + 1) })}
              onRowsPerPageChange={(event) => set({ per_page: event.target.value, page: '1' })}
            />
          )
        }
      />
    </>
  );
}
