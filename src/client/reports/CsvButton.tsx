import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import { withQuery } from '../http/query';

/** "Download CSV": the same endpoint and filters, `format=csv` (the session cookie rides along). */
export function CsvButton({ path, query }: { path: string; query: Record<string, string> }) {
  const href = withQuery(path, { ...query, format: 'csv' });
  return (
    <Button
      component="a"
      href={href}
      download
      variant="outlined"
      size="small"
      startIcon={<DownloadIcon />}
      data-testid="csv-export"
    >
      CSV
    </Button>
  );
}
