/**
 * Every field of the record with its value, as the field type shows it; fields the logic hides are left out. Two
 * columns on a wide screen (the show page); `compact` (the map's side panel): one column, empty fields left out.
 */

import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useRecordContext } from 'react-admin';
import { type FieldDescriptor, FieldDisplay } from '../fieldTypes';
import { runLogic } from '../logic/logic';
import { isWide } from '../RecordForm';
import type { RecordSchema } from '../schema';

const isEmptyValue = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

export function DetailsTab({
  schema,
  descriptors,
  compact = false,
}: {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  compact?: boolean;
}) {
  const record = useRecordContext();
  const visibility = useMemo(
    () =>
      record
        ? runLogic(
            schema.actions,
            record,
            schema.fields.map((field) => ({ id: field.id, slug: field.slug })),
            { kind: 'all' },
          ).visibility
        : {},
    [record, schema],
  );
  if (!record) return null;
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: compact ? '1fr' : { xs: '1fr', md: '1fr 1fr' },
        columnGap: 4,
        rowGap: 2,
      }}
      data-testid="record-details"
    >
      {descriptors
        .filter(
          (descriptor) =>
            visibility[descriptor.slug] !== 'hidden' && (!compact || !isEmptyValue(record[descriptor.slug])),
        )
        .map((descriptor) => (
          <Box
            key={descriptor.slug}
            sx={{ gridColumn: isWide(descriptor) ? '1 / -1' : undefined, minWidth: 0 }}
            data-field={descriptor.slug}
          >
            <Typography
              component="dt"
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block', fontWeight: 600, textTransform: 'uppercase', letterSpacing: 0.4 }}
            >
              {descriptor.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, mt: 0.25, overflowWrap: 'anywhere' }}>
              <FieldDisplay descriptor={descriptor} variant="show" />
            </Typography>
          </Box>
        ))}
    </Box>
  );
}
