/**
 * Drop CSV files, pick an importer, see the first rows as they will be mapped (with the errors they would
 * produce), then start: 'Your import has started.' and on to the import's page, where progress is live.
 */

import CloseIcon from '@mui/icons-material/Close';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useGetList, useNotify, useRedirect } from 'react-admin';
import { useDropzone } from 'react-dropzone';
import { TARGETS_BY_KEY } from '../../common/import-targets';
import type { Preview } from '../providers/importMethods';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { useAppDataProvider, useSchemaByType } from '../records/hooks';
import { formatBytes } from './formatBytes';

const MAX_BYTES = 100 * 1024 * 1024;

type PreviewRow = Preview['rows'][number];
const previewRowKey = (row: PreviewRow) => String(row.line);
/** Rows that would fail stand out. */
const PROBLEM_ROWS = {
  when: (row: PreviewRow) => Boolean(row.errors?.length),
  className: 'row-problem',
  sx: { bgcolor: 'error.light', color: 'error.contrastText', '&:hover': { bgcolor: 'error.light' } },
};

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function ImportUpload() {
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const redirect = useRedirect();
  const [files, setFiles] = useState<File[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [importerId, setImporterId] = useState<string>('');
  const [sheet, setSheet] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [loadingPreview, setLoadingPreview] = useState(false);
  const [starting, setStarting] = useState(false);
  const { data: importers = [], isPending } = useGetList('importers', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'position', order: 'ASC' },
  });

  const onDrop = useCallback(
    (accepted: File[], rejections: Array<{ file: File; errors: Array<{ code: string; message: string }> }>) => {
      setFiles((current) => [...current, ...accepted].slice(0, 20));
      setSheet('');
      setRefused(
        rejections.map(({ file, errors }) =>
          errors[0]?.code === 'file-too-large'
            ? `"${file.name}" is larger than 100 MB, the most a file may be.`
            : `"${file.name}" cannot be imported: only .csv, .txt, .tsv and .xlsx files can.`,
        ),
      );
    },
    [],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: onDrop as any,
    accept: {
      'text/csv': ['.csv'],
      'text/plain': ['.txt', '.csv'],
      'text/tab-separated-values': ['.tsv'],
      'application/vnd.ms-excel': ['.csv'],
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
    },
    maxSize: MAX_BYTES,
    multiple: true,
  });

  // Pick the first importer once they are loaded.
  useEffect(() => {
    if (!importerId && importers.length) setImporterId(String(importers[0].id));
  }, [importers, importerId]);

  // Preview the first file with the chosen importer.
  useEffect(() => {
    const file = files[0];
    setPreview(null);
    setPreviewError(null);
    if (!file || !importerId) return;
    let cancelled = false;
    setLoadingPreview(true);
    dataProvider
      .previewImport(file, { importer_id: importerId, ...(sheet ? { sheet } : {}) })
      .then((result) => !cancelled && setPreview(result))
      .catch((error) => !cancelled && setPreviewError(error?.message ?? 'The preview failed.'))
      .finally(() => !cancelled && setLoadingPreview(false));
    return () => {
      cancelled = true;
    };
  }, [dataProvider, files, importerId, sheet]);

  const importer = importers.find((i) => String(i.id) === importerId);
  const schema = useSchemaByType(importer ? String(importer.record_type) : '');
  // Columns by the names of their fields, as the forms show them.
  const mappedColumns = useMemo(() => {
    if (!preview) return [] as Array<{ key: string; label: string }>;
    const keys = new Set<string>();
    for (const row of preview.rows) for (const key of Object.keys(row.values ?? {})) keys.add(key);
    const names = new Map((schema?.fields ?? []).map((field) => [field.slug, field.name]));
    const label = (key: string) =>
      names.get(key) ?? (key === 'name' ? 'Name' : key.replace(/_id$/, '').replace(/_/g, ' '));
    return [...keys].map((key) => ({ key, label: label(key) }));
  }, [preview, schema]);
  const related = (row: Preview['rows'][number]) =>
    [
      row.related?.status && `Status: ${row.related.status}`,
      row.related?.contractor?.name && `Contractor: ${row.related.contractor.name}`,
      row.related?.union && `Union: ${row.related.union}`,
      row.related?.classification && `Class: ${row.related.classification}`,
      row.related?.contacts?.length ? `${row.related.contacts.length} contact(s)` : null,
    ]
      .filter(Boolean)
      .join(' · ');
  // Trades and related records are columns only when the file brings some (a type made in the app has none).
  const showTrades = preview?.rows.some((row) => row.related?.trades?.length) ?? false;
  const showRelated = preview?.rows.some((row) => related(row) !== '') ?? false;
  const rowsWithErrors = preview?.rows.filter((row) => row.errors?.length).length ?? 0;
  const previewColumns = useMemo(
    (): TableColumn<PreviewRow>[] => [
      { header: 'Line', align: 'left', minWidth: 80, value: (row) => row.line },
      {
        header: 'Problems',
        align: 'left',
        minWidth: 260,
        wrap: true,
        value: (row) => (row.errors?.length ? row.errors.join(' ') : 'OK'),
      },
      ...mappedColumns.map(
        (column): TableColumn<PreviewRow> => ({
          header: column.label,
          align: 'left',
          minWidth: 140,
          value: (row) => describeValue(row.values?.[column.key]),
        }),
      ),
      ...(showTrades
        ? [
            {
              header: 'Trades',
              align: 'left' as const,
              value: (row: PreviewRow) => row.related?.trades.join(', ') ?? '',
            },
          ]
        : []),
      ...(showRelated
        ? [{ header: 'Related', align: 'left' as const, minWidth: 220, value: (row: PreviewRow) => related(row) }]
        : []),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- related() reads only the row
    [mappedColumns, showTrades, showRelated],
  );

  const start = async () => {
    if (!files.length || !importerId) return;
    setStarting(true);
    try {
      const result = await dataProvider.startImport(files, importerId, sheet);
      notify(result.message ?? 'Your import has started.', { type: 'info' });
      redirect('show', 'imports', result.data.id);
    } catch (error: any) {
      notify(error?.message ?? 'The upload failed.', { type: 'error' });
    } finally {
      setStarting(false);
    }
  };

  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Import CSV files
        </Typography>
        <Stack sx={{ alignItems: { md: 'flex-start' } }} direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Box
            {...getRootProps()}
            aria-label="Drop CSV files here, or choose files"
            sx={{
              flex: 1,
              minHeight: 120,
              border: '2px dashed',
              borderColor: isDragActive ? 'primary.main' : 'divider',
              bgcolor: isDragActive ? 'action.hover' : 'background.default',
              borderRadius: 2,
              p: 2,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              textAlign: 'center',
              cursor: 'pointer',
              outline: 'none',
              '&:focus-visible': { borderColor: 'primary.main' },
            }}
          >
            <input {...getInputProps()} data-testid="import-file-input" />
            <UploadFileIcon color="action" sx={{ fontSize: 36, mb: 1 }} />
            <Typography>{isDragActive ? 'Drop the files here' : 'Drop CSV files here, or click to choose'}</Typography>
            <Typography variant="body2" color="text.secondary">
              .csv, .txt or .xlsx (Excel), up to 100 MB each; UTF-8 or Windows-1252
            </Typography>
          </Box>
          <Stack spacing={2} sx={{ width: { xs: '100%', md: 340 } }}>
            <TextField
              select
              label="Importer"
              value={importerId}
              onChange={(event) => setImporterId(event.target.value)}
              helperText={
                isPending
                  ? 'Loading the importers…'
                  : importer?.description
                    ? String(importer.description)
                    : 'How the columns of the file become records'
              }
              fullWidth
              slotProps={{ select: { inputProps: { 'data-testid': 'importer-select' } } }}
            >
              {importers.map((option) => (
                <MenuItem key={option.id} value={String(option.id)}>
                  {option.name}
                </MenuItem>
              ))}
            </TextField>
            {preview?.sheets && preview.sheets.length > 1 && (
              <TextField
                select
                label="Sheet"
                value={preview.sheet ?? ''}
                onChange={(event) => setSheet(event.target.value)}
                helperText="The sheet of the workbook to import"
                fullWidth
              >
                {preview.sheets.map((name) => (
                  <MenuItem key={name} value={name}>
                    {name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Button
              variant="contained"
              size="large"
              onClick={start}
              disabled={!files.length || !importerId || starting}
              startIcon={starting ? <CircularProgress size={18} /> : undefined}
            >
              {starting ? 'Uploading...' : `Start import${files.length > 1 ? ` of ${files.length} files` : ''}`}
            </Button>
          </Stack>
        </Stack>

        {refused.map((message) => (
          <Alert
            key={message}
            severity="error"
            sx={{ mt: 2 }}
            onClose={() => setRefused((list) => list.filter((m) => m !== message))}
          >
            {message}
          </Alert>
        ))}

        {files.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }} aria-label="Chosen files">
            {files.map((file, index) => (
              <Chip
                key={`${file.name}-${index}`}
                label={`${file.name} (${formatBytes(file.size)})`}
                onDelete={() => setFiles((list) => list.filter((_, i) => i !== index))}
                deleteIcon={
                  <IconButton size="small" aria-label={`Remove ${file.name}`}>
                    <CloseIcon fontSize="small" />
                  </IconButton>
                }
              />
            ))}
          </Stack>
        )}

        {loadingPreview && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 2 }}>
            <CircularProgress size={18} />
            <Typography variant="body2">Reading the first rows...</Typography>
          </Stack>
        )}
        {previewError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {previewError}
          </Alert>
        )}
        {preview && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle1" component="h3">
              Preview of {preview.file.name}: the first {preview.rows.length} rows as they will be imported
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {preview.headers.length} columns, about {Math.max(0, preview.file.lines - 1).toLocaleString('en')} rows,
              read as {preview.file.encoding === 'utf8' ? 'UTF-8' : 'Windows-1252'}.
              {rowsWithErrors > 0
                ? ` ${rowsWithErrors} of these rows would fail; the others are imported.`
                : ' No errors in these rows.'}
            </Typography>
            {preview.missing_columns.length > 0 && (
              <Alert severity="warning" sx={{ mb: 1 }}>
                The importer reads columns this file does not have: {preview.missing_columns.join(', ')}.
              </Alert>
            )}
            <TableGrid
              label="Preview of the mapped rows"
              fileName={`preview-${preview.file.name.replace(/\.[^.]+$/, '')}`}
              columns={previewColumns}
              rows={preview.rows}
              rowKey={previewRowKey}
              empty="The file has no rows."
              rowSx={PROBLEM_ROWS}
            />
            {!importer && preview.suggestions.some(Boolean) && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                Suggested targets:{' '}
                {preview.headers
                  .map((h, i) =>
                    preview.suggestions[i]
                      ? `${h} → ${TARGETS_BY_KEY.get(preview.suggestions[i])?.label ?? preview.suggestions[i]}`
                      : null,
                  )
                  .filter(Boolean)
                  .join('; ')}
              </Typography>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
