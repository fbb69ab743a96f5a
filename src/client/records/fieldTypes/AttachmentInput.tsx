/**
 * An attachment field (SPEC section 3): files uploaded as they are chosen (POST /api/attachments, multipart), the
 * field keeping their document ids. Loaded on demand.
 */

import AttachFileIcon from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { required, useGetMany, useInput, useNotify } from 'react-admin';
import { useAppDataProvider } from '../hooks';
import type { FieldDescriptor } from './describe';

export default function AttachmentInput({ descriptor }: { descriptor: FieldDescriptor }) {
  const { field, fieldState, isRequired } = useInput({
    source: descriptor.slug,
    validate: descriptor.required ? [required()] : undefined,
  });
  const ids: number[] = Array.isArray(field.value) ? field.value.map(Number) : [];
  const { data: documents = [] } = useGetMany('attachments', { ids }, { enabled: ids.length > 0 });
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    const added: number[] = [];
    try {
      for (const file of Array.from(files)) {
        const result = await dataProvider.create('attachments', { data: { file } });
        added.push(Number(result.data.id));
      }
      notify(added.length === 1 ? 'File uploaded.' : `${added.length} files uploaded.`, { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      if (added.length) field.onChange([...ids, ...added]);
      if (picker.current) picker.current.value = '';
    }
  };

  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {descriptor.label}
        {isRequired ? ' *' : ''}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mt: 0.5 }}>
        {ids.map((id) => {
          const document = documents.find((candidate) => Number(candidate.id) === id);
          return (
            <Chip
              key={id}
              label={document?.file_name ?? `File #${id}`}
              onDelete={() => field.onChange(ids.filter((other) => other !== id))}
              size="small"
            />
          );
        })}
        <Button size="small" startIcon={<AttachFileIcon />} onClick={() => picker.current?.click()} disabled={busy}>
          {busy ? 'Uploading…' : 'Add files'}
        </Button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label={`${descriptor.label}: choose files`}
          onChange={(event) => void upload(event.target.files)}
        />
      </Box>
      {(fieldState.error || descriptor.help) && (
        <FormHelperText error={Boolean(fieldState.error)}>
          {fieldState.error?.message ?? descriptor.help}
        </FormHelperText>
      )}
    </Box>
  );
}
