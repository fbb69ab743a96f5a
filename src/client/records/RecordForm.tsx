/**
 * The generated form of a record type: every editable field of the schema, in schema order, through the field
 * type table; form logic shows, hides and sets fields as values change. Long fields take the full width. It saves
 * through the save context of the EditBase / CreateBase around it (RecordEdit, RecordCreate).
 */

import SaveIcon from '@mui/icons-material/Save';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { memo, type ReactNode } from 'react';
import { Form, useCanAccess, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { type FieldDescriptor, FieldInput, fieldTypeUI } from './fieldTypes';
import { FormLogic, useFieldVisible } from './logic/FormLogic';
import type { RecordSchema } from './schema';

/** Its type gives it both columns of the form (long text, lists, structures). */
export const isWide = (descriptor: FieldDescriptor) => fieldTypeUI(descriptor.type).wide(descriptor);

/** One field: rendered only while the logic shows it; re-rendered only when its own visibility changes. */
const FieldSlot = memo(function FieldSlot({ descriptor }: { descriptor: FieldDescriptor }) {
  const visible = useFieldVisible(descriptor.slug);
  const { canAccess: readable } = useCanAccess({
    resource: descriptor.reference?.resource ?? 'schemas',
    action: 'read',
  });
  if (!visible || descriptor.readOnly) return null;
  if (descriptor.reference && !readable) return null;
  return (
    <Box
      data-field={descriptor.slug}
      sx={{
        gridColumn: isWide(descriptor) ? '1 / -1' : undefined,
        minWidth: 0,
        '& .MuiFormControl-root': { width: '100%' },
      }}
    >
      <FieldInput descriptor={descriptor} />
    </Box>
  );
});

function SaveBar({ onCancel, extra }: { onCancel?: () => void; extra?: ReactNode }) {
  const { isSubmitting } = useFormState();
  const translate = useTranslate();
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        px: 2,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'grey.50',
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
      }}
    >
      <Button
        type="submit"
        variant="contained"
        startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
        disabled={isSubmitting}
      >
        {translate('ra.action.save')}
      </Button>
      {onCancel && (
        <Button onClick={onCancel} disabled={isSubmitting}>
          {translate('ra.action.cancel')}
        </Button>
      )}
      <Box sx={{ flex: 1 }} />
      {extra}
    </Stack>
  );
}

export interface RecordFormProps {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  record?: Record<string, unknown>;
  defaultValues?: Record<string, unknown>;
  onCancel?: () => void;
  toolbarExtra?: ReactNode;
}

export function RecordForm({ schema, descriptors, record, defaultValues, onCancel, toolbarExtra }: RecordFormProps) {
  return (
    <Card variant="outlined" sx={{ overflow: 'visible' }}>
      <Form record={record as any} defaultValues={defaultValues} noValidate>
        <FormLogic schema={schema} initialValues={record ?? defaultValues}>
          <CardContent>
            <Box
              sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 3, rowGap: 0.5 }}
              data-testid="record-form"
            >
              {descriptors.map((descriptor) => (
                <FieldSlot key={descriptor.slug} descriptor={descriptor} />
              ))}
            </Box>
          </CardContent>
        </FormLogic>
        <SaveBar onCancel={onCancel} extra={toolbarExtra} />
      </Form>
    </Card>
  );
}
