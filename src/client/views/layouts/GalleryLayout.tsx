/**
 * A list laid out as a gallery (docs/views.md "Gallery"): a card per record the list finds (its filters, saved view,
 * search and access), showing the first image of the chosen attachment field (the built-in `attachments` list, or an
 * attachment field's files), the record's name (a link that opens it) and up to four chosen fields. Cards are read
 * 24 at a time; on a phone they stack in one column. Each card is reached with Tab by its link.
 */
import ImageIcon from '@mui/icons-material/ImageOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { RecordContextProvider, useGetList, useGetMany, useListContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { defaultColumns, type FieldDescriptor, FieldDisplay } from '../../records/fieldTypes';
import { recordPath } from '../../records/recordPath';
import { recordLabel } from '../../records/schema';
import { GALLERY_FIELDS } from './useLayout';

/** Cards read at first, and how many more each "Show more" adds. */
export const GALLERY_PAGE = 24;

type GalleryRecord = { id: number | string } & Record<string, unknown>;
type FileInfo = { id: number | string; mime_type?: string | null; file_name?: string | null };

const NAME_FIELDS = new Set(['name', 'first_name', 'last_name', 'title']);
const isImage = (file: FileInfo | undefined) => Boolean(file?.mime_type?.startsWith('image/'));
const imageUrl = (file: FileInfo) => `/api/documents/${encodeURIComponent(String(file.id))}/download?inline=1`;

/** A record's files in the field: the built-in list's documents, or an attachment field's document ids. */
function filesOf(record: GalleryRecord, slug: string): Array<FileInfo | number> {
  const value = record[slug];
  if (!Array.isArray(value)) return [];
  return value.map((item) => (typeof item === 'object' && item !== null ? (item as FileInfo) : Number(item)));
}

interface GalleryLayoutProps {
  resource: string;
  field: FieldDescriptor;
  /** The fields under the name (the list's first columns when none are chosen). */
  fields: string[];
  descriptors: FieldDescriptor[];
  viewId: number | null;
  plural: string;
}

export function GalleryLayout({ resource, field, fields, descriptors, viewId, plural }: GalleryLayoutProps) {
  const { filterValues, sort } = useListContext();
  const [shown, setShown] = useState(GALLERY_PAGE);
  const {
    data = [],
    total,
    isPending,
    error,
  } = useGetList<GalleryRecord>(resource, {
    pagination: { page: 1, perPage: shown },
    sort,
    filter: filterValues,
    meta: viewId ? { query: { view: viewId } } : undefined,
  });
  const shownFields = useMemo(() => {
    const chosen = fields.length ? fields : defaultColumns(descriptors).filter((slug) => !NAME_FIELDS.has(slug));
    return chosen
      .map((slug) => descriptors.find((descriptor) => descriptor.slug === slug))
      .filter((descriptor): descriptor is FieldDescriptor => Boolean(descriptor) && descriptor?.type !== 'attachment')
      .slice(0, GALLERY_FIELDS);
  }, [fields, descriptors]);
  // An attachment field keeps document ids: their types are read at once for the whole page.
  const ids = [...new Set(data.flatMap((record) => filesOf(record, field.slug)).filter((f) => typeof f === 'number'))];
  const { data: documents = [] } = useGetMany<FileInfo & { id: number }>(
    'attachments',
    { ids },
    { enabled: ids.length > 0 },
  );
  const imageOf = (record: GalleryRecord) =>
    filesOf(record, field.slug)
      .map((file) => (typeof file === 'number' ? documents.find((document) => Number(document.id) === file) : file))
      .find(isImage);

  if (error)
    return (
      <Typography color="error" sx={{ p: 2 }}>
        {error instanceof Error ? error.message : 'This gallery could not be read.'}
      </Typography>
    );
  if (isPending) return <Typography sx={{ p: 2 }}>Loading the gallery…</Typography>;
  return (
    <Box sx={{ p: 1 }}>
      <Typography variant="body2" color="text.secondary" sx={{ pb: 1 }} aria-live="polite">
        {`${total ?? data.length} ${plural}, with the first image of ${field.label}`}
      </Typography>
      <Box
        component="ul"
        aria-label={`Gallery of ${plural}`}
        data-testid="gallery"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: 1,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(220px, 1fr))' },
        }}
      >
        {data.map((record) => (
          <GalleryCard
            key={record.id}
            resource={resource}
            record={record}
            image={imageOf(record)}
            fields={shownFields}
          />
        ))}
      </Box>
      {(total ?? 0) > shown && (
        <Button sx={{ mt: 1 }} onClick={() => setShown((n) => n + GALLERY_PAGE)}>
          Show {Math.min(GALLERY_PAGE, (total ?? 0) - shown)} more
        </Button>
      )}
    </Box>
  );
}

interface GalleryCardProps {
  resource: string;
  record: GalleryRecord;
  image: FileInfo | undefined;
  fields: FieldDescriptor[];
}

function GalleryCard({ resource, record, image, fields }: GalleryCardProps) {
  const name = recordLabel(record) || `#${record.id}`;
  return (
    <Card
      component="li"
      variant="outlined"
      data-testid="gallery-card"
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <Box
        sx={{
          aspectRatio: '4 / 3',
          bgcolor: 'action.hover',
          display: 'grid',
          placeItems: 'center',
          overflow: 'hidden',
        }}
      >
        {image ? (
          <Box
            component="img"
            src={imageUrl(image)}
            alt={image.file_name ? `${name}: ${image.file_name}` : name}
            loading="lazy"
            sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
        ) : (
          <ImageIcon color="disabled" fontSize="large" aria-label="No image" />
        )}
      </Box>
      <Box sx={{ p: 1, display: 'grid', gap: 0.5 }}>
        <Link
          component={RouterLink}
          to={recordPath(resource, record.id)}
          variant="subtitle2"
          underline="hover"
          sx={{ overflowWrap: 'anywhere' }}
        >
          {name}
        </Link>
        <RecordContextProvider value={record}>
          {fields.map((descriptor) => (
            <Box key={descriptor.slug} sx={{ minWidth: 0 }}>
              <Typography variant="caption" color="text.secondary" component="div">
                {descriptor.label}
              </Typography>
              <Box sx={{ typography: 'body2', overflowWrap: 'anywhere' }}>
                <FieldDisplay descriptor={descriptor} variant="list" />
              </Box>
            </Box>
          ))}
        </RecordContextProvider>
      </Box>
    </Card>
  );
}
