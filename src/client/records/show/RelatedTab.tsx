/**
 * The records that point at this one: for every record type with a relation to this type (contacts of a site
 * through `site_ids`, its grievances through `site_id`...), a short list of those records as the record grid
 * (each person's columns of it kept as `related:<resource>:<field>`), a card list on a phone.
 */

import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import {
  Pagination,
  ReferenceManyField,
  ResourceContextProvider,
  SimpleList,
  useCanAccessResources,
  useListContext,
} from 'react-admin';
import { useMainData } from '../../app/hooks';
import { titleCase } from '../../i18n/labels';
import { describeField, type FieldDescriptor } from '../fieldTypes';
import RecordGrid from '../grid/RecordGrid';
import { useSmallScreen } from '../grid/smallScreen';
import { type RecordSchema, recordLabel, relatedFields } from '../schema';

const PAGE_SIZES = [5, 10, 25];

function RelatedList({
  schema,
  descriptors,
  listKey,
}: {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  listKey: string;
}) {
  const { total, isPending } = useListContext();
  const small = useSmallScreen();
  if (!isPending && !total) {
    return (
      <Typography sx={{ px: 2, pb: 2 }} variant="body2" color="text.secondary">
        None yet.
      </Typography>
    );
  }
  if (small) return <SimpleList primaryText={(record) => recordLabel(record)} linkType="show" />;
  return (
    <RecordGrid
      schema={schema}
      descriptors={descriptors}
      listKey={listKey}
      pageSizeOptions={PAGE_SIZES}
      label={titleCase(schema.name_plural)}
    />
  );
}

export function RelatedTab({ schema }: { schema: RecordSchema }) {
  const { schemas } = useMainData();
  const pointing = useMemo(() => relatedFields(schemas, schema.type), [schemas, schema.type]);
  // Every resource these lists show or link to: the pointing record types and what their columns reference.
  const resources = useMemo(
    () => [
      ...new Set(
        pointing.flatMap(({ schema: other }) => [
          other.resource,
          ...other.fields
            .map(describeField)
            .flatMap((descriptor) => (descriptor.reference ? [descriptor.reference.resource] : [])),
        ]),
      ),
    ],
    [pointing],
  );
  const { canAccess: reads = {}, isPending } = useCanAccessResources({ action: 'read', resources });
  const related = pointing.filter(({ schema: other }) => reads[other.resource]);
  const small = useSmallScreen();
  if (isPending) return null;
  if (!related.length) {
    return (
      <Typography color="text.secondary" variant="body2">
        No other record types point at {schema.name_plural.toLowerCase()}.
      </Typography>
    );
  }
  return (
    <Stack spacing={2}>
      {related.map(({ schema: other, field, target }) => {
        const descriptors = other.fields
          .map(describeField)
          .filter(
            (descriptor) =>
              descriptor.slug !== field.slug && (!descriptor.reference || reads[descriptor.reference.resource]),
          );
        return (
          <Card
            variant="outlined"
            key={`${other.type}:${field.slug}`}
            data-testid={`related-${other.resource}-${field.slug}`}
          >
            <Box sx={{ px: 2, pt: 1.5 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {titleCase(other.name_plural)}
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}
                  by their “{field.name}”
                </Typography>
              </Typography>
            </Box>
            <ResourceContextProvider value={other.resource}>
              <ReferenceManyField
                reference={other.resource}
                target={target}
                perPage={5}
                pagination={small ? <Pagination rowsPerPageOptions={PAGE_SIZES} /> : false}
              >
                <RelatedList
                  schema={other}
                  descriptors={descriptors}
                  listKey={`related:${other.resource}:${field.slug}`}
                />
              </ReferenceManyField>
            </ResourceContextProvider>
          </Card>
        );
      })}
    </Stack>
  );
}
