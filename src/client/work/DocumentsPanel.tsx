/** Documents of a record: download, upload (multipart, several at once), delete. */

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import UploadIcon from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useCanAccess, useGetList, useNotify } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { AskBeforeDelete } from '../records/DeleteConfirm';
import { useAppDataProvider } from '../records/hooks';
import { useInvalidateResource, useRecordMutations } from '../records/mutations';
import { formatSize, type Owner } from './shared';

export function DocumentsPanel({ owner, ownerResource }: { owner: Owner; ownerResource?: string }) {
  const { canAccess: canCreate } = useCanAccess({ resource: 'documents', action: 'create' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'documents', action: 'delete' });
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();
  const { remove } = useRecordMutations('documents');
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const { data = [], isPending } = useGetList('documents', {
    filter: { documentable_type: owner.type, documentable_id: owner.id },
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: 200 },
  });

  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    let message: string | undefined;
    try {
      for (const file of Array.from(files)) {
        const result = await dataProvider.create('documents', {
          data: { file, documentable_type: owner.type, documentable_id: owner.id },
        });
        message = result.meta?.message;
      }
      notify(
        files.length === 1 ? (message ?? 'Document created successfully.') : `${files.length} documents uploaded.`,
        { type: 'success' },
      );
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      if (picker.current) picker.current.value = '';
      await invalidate('documents', 'attachments', ...(ownerResource ? [ownerResource] : []));
    }
  };

  return (
    <Stack spacing={2} data-testid="documents">
      {canCreate && (
        <Box>
          <Button
            variant="contained"
            size="small"
            startIcon={<UploadIcon />}
            onClick={() => picker.current?.click()}
            disabled={busy}
          >
            {busy ? 'Uploading…' : 'Upload documents'}
          </Button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            data-testid="document-file"
            aria-label="Choose documents to upload"
            onChange={(event) => void upload(event.target.files)}
          />
        </Box>
      )}
      {!isPending && !data.length && (
        <Typography color="text.secondary" variant="body2">
          No documents yet.
        </Typography>
      )}
      {data.map((document) => (
        <Stack
          key={document.id}
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', pb: 1 }}
          data-document={document.id}
        >
          <InsertDriveFileIcon color="action" fontSize="small" />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Link href={document.url ?? `/api/documents/${document.id}/download`} sx={{ overflowWrap: 'anywhere' }}>
              {document.file_name}
            </Link>
            <Typography variant="caption" color="text.secondary" component="div">
              {formatSize(document.size)} · {formatDateTime(document.created_at)}
            </Typography>
          </Box>
          {canDelete && (
            <AskBeforeDelete
              title={`Delete ${document.file_name}?`}
              restorable={false}
              onConfirm={() =>
                remove(document, 'Document deleted successfully.').then(() =>
                  invalidate('attachments', ...(ownerResource ? [ownerResource] : [])),
                )
              }
              button={(ask) => (
                <Tooltip title="Delete document">
                  <IconButton size="small" aria-label={`Delete ${document.file_name}`} onClick={ask}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            />
          )}
        </Stack>
      ))}
    </Stack>
  );
}
