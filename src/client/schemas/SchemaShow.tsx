/**
 * One record type: its fields (type, required, category) and its rules, read-only, with a link to edit them. A
 * built-in type says why it differs from one made here (the app's own screens, imports and reports rely on its
 * built-in fields) and offers an administrator to add custom fields to it.
 */

import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import ListIcon from '@mui/icons-material/ListAlt';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Title, useCanAccess } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { titleCase } from '../i18n/labels';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { LoadFailed, PageLoading } from '../records/ui';
import { describeBlock, FIELD_TYPE_LABELS } from './shared';
import { useSchemaRecord } from './useSchemaEditor';

export default function SchemaShow() {
  const { id } = useParams<{ id: string }>();
  const { data: schema, error, isPending } = useSchemaRecord(id);
  const { canAccess: canUpdate } = useCanAccess({ resource: 'schemas', action: 'edit' });
  useDocumentTitle(schema ? `${titleCase(schema.name_plural)} · Schemas` : 'Schemas');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !schema) return <PageLoading />;
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={`Schema: ${titleCase(schema.name_plural)}`} />
      <PageHeader
        title={titleCase(schema.name_plural)}
        subtitle={`One record is a “${schema.name_singular}” · type ${schema.type} · ${schema.built_in ? 'built in' : 'created here'}`}
        actions={
          <>
            <Button
              size="small"
              variant="outlined"
              startIcon={<ListIcon />}
              component={RouterLink}
              to={`/${schema.resource}`}
            >
              Open the list
            </Button>
            {canUpdate && (
              <Button
                size="small"
                variant="contained"
                startIcon={<EditIcon />}
                component={RouterLink}
                to={`/schemas/${schema.id}`}
              >
                Edit
              </Button>
            )}
          </>
        }
      />
      <Stack spacing={2}>
        {schema.built_in && (
          <Alert severity="info" data-testid="built-in-note">
            {titleCase(schema.name_plural)} are built into the app: its own screens, imports and reports rely on their
            built-in fields, so those keep their type and cannot be removed, and the record type cannot be deleted.
            Fields can still be renamed, and custom fields and rules added
            {canUpdate ? '.' : ' by an administrator.'}
            {canUpdate && (
              <Box sx={{ mt: 1 }}>
                <Button
                  variant="outlined"
                  color="inherit"
                  size="small"
                  startIcon={<AddIcon />}
                  component={RouterLink}
                  to={`/schemas/${schema.id}?add=field`}
                >
                  Add a custom field
                </Button>
              </Box>
            )}
          </Alert>
        )}
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
              Fields
            </Typography>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>Slug</TableCell>
                    <TableCell>Type</TableCell>
                    <TableCell>Required</TableCell>
                    <TableCell>Kind</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {schema.fields.map((field) => (
                    <TableRow key={field.id}>
                      <TableCell>{field.name}</TableCell>
                      <TableCell>
                        <code>{field.slug}</code>
                      </TableCell>
                      <TableCell>{FIELD_TYPE_LABELS[field.type] ?? field.type}</TableCell>
                      <TableCell>{field.required ? 'Yes' : ''}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          variant="outlined"
                          label={
                            field.category === 'internal'
                              ? 'Built in'
                              : field.category === 'importer'
                                ? 'Importer'
                                : 'Custom'
                          }
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </CardContent>
        </Card>
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
              Rules
            </Typography>
            {schema.actions.length === 0 ? (
              <Typography color="text.secondary" variant="body2">
                No rules: every field is always shown.
              </Typography>
            ) : (
              <Stack spacing={1}>
                {schema.actions.map((block) => (
                  <Box key={block.id} sx={{ p: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}>
                    <Typography variant="body2">{describeBlock(block, schema.fields)}</Typography>
                    {block.description && (
                      <Typography variant="caption" color="text.secondary">
                        {block.description}
                      </Typography>
                    )}
                  </Box>
                ))}
              </Stack>
            )}
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}
