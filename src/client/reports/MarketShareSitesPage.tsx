/**
 * `/reports/market-share/sites?...`: the job sites behind one number of the market-share report (its group and
 * labour), from GET /api/reports/market-share/sites; its total is the number that was clicked. Each site opens.
 */
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Title } from 'react-admin';
import { TYPE_LABELS } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { ErrorNote } from '../insights/ErrorNote';
import { PageHeader } from '../insights/PageHeader';
import { formatMoney, formatNumber } from '../insights/format';
import { useApi } from '../insights/useInsights';
import { useUrlFilters } from '../insights/useUrlFilters';

const LABOUR_NAMES: Record<string, string> = { union: 'Union', 'non-union': 'Non-union', unknown: 'Unknown' };

export default function MarketShareSitesPage() {
  useDocumentTitle('Market share: sites');
  const { values, set, query } = useUrlFilters({ page: '1', per_page: '25' } as Record<string, string>);
  const { label, ...filters } = query;
  const list = useApi<{ data: any[]; meta: { total: number; current_page: number; per_page: number } }>('/api/reports/market-share/sites', filters);
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
          <Button component={RouterLink} to={`/reports/market-share?${back}`} size="small" startIcon={<ArrowBackIcon />}>
            Market share
          </Button>
        }
      />
      <ErrorNote error={list.error} />
      <Card variant="outlined">
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="drill-down-table" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>Job site</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>City</TableCell>
                <TableCell align="right">Estimated value</TableCell>
                <TableCell align="right">Estimated hours</TableCell>
                <TableCell>Counts as</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(list.data?.data ?? []).map((site) => (
                <TableRow key={site.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/sites/${site.id}/show`} underline="hover">
                      {site.name}
                    </Link>
                  </TableCell>
                  <TableCell>{TYPE_LABELS[site.type] ?? site.type}</TableCell>
                  <TableCell>{site.city ?? ''}</TableCell>
                  <TableCell align="right">{formatMoney(site.estimated_value)}</TableCell>
                  <TableCell align="right">{formatNumber(site.estimated_hours)}</TableCell>
                  <TableCell>{LABOUR_NAMES[site.labour] ?? site.labour}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {list.data && (
          <TablePagination
            component="div"
            count={list.data.meta.total}
            page={Number(values.page) - 1}
            rowsPerPage={Number(values.per_page)}
            rowsPerPageOptions={[25, 50, 100]}
            onPageChange={(_e, page) => set({ page: String(page + 1) })}
            onRowsPerPageChange={(event) => set({ per_page: event.target.value, page: '1' })}
          />
        )}
      </Card>
    </>
  );
}
