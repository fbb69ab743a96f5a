/**
 * The schema editor (`/schemas/{id}`): rename the record type (its menu label and page titles follow at once), add,
 * edit, reorder and remove fields, and build its rules in the visual editor.
 */

import AddIcon from '@mui/icons-material/Add';
import ArrowDownIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import ListIcon from '@mui/icons-material/ListAlt';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Confirm, Title } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { SchemaField } from '../../common/schema-types';
import { titleCase } from '../i18n/labels';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useAppDataProvider } from '../records/hooks';
import { asRecordSchema, type RecordSchema } from '../records/schema';
import { LoadFailed, PageLoading } from '../records/ui';
import { FieldDialog } from './FieldDialog';
import { type ChangeImpact, ImpactSummary } from './impact';
import { LogicEditor } from './LogicEditor';
import { FIELD_TYPE_LABELS } from './shared';
import { useSchemaRecord, useSchemaWrites } from './useSchemaEditor';

/** The impact of a removal, asked of the server while the confirmation is open. */
function useImpact(load: (() => Promise<ChangeImpact>) | null, key: unknown) {
  const [impact, setImpact] = useState<ChangeImpact | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    setImpact(null);
    if (!load) return;
    let live = true;
    load()
      .then((answer) => live && setImpact(answer))
      .catch(
        (error: { message?: string }) =>
          live &&
          setImpact({ summary: [], blocking: [error?.message ?? 'What this affects could not be worked out.'] }),
      );
    return () => {
      live = false;
    };
    // `load` is made anew at each render from what `key` names: asked again only when the key changes.
  }, [key, round]);
  return { impact, reload: () => setRound((n) => n + 1) };
}

function Section({ title, children, action }: { title: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1.5 }}>
          <Typography variant="h3" component="h2" sx={{ flex: 1 }}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

function NamesForm({ schema }: { schema: RecordSchema }) {
  const writes = useSchemaWrites();
  const [singular, setSingular] = useState(schema.name_singular);
  const [plural, setPlural] = useState(schema.name_plural);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setSingular(schema.name_singular);
    setPlural(schema.name_plural);
  }, [schema.name_singular, schema.name_plural]);
  const changed = singular !== schema.name_singular || plural !== schema.name_plural;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField
        label="One record is called"
        value={singular}
        onChange={(event) => setSingular(event.target.value)}
        size="small"
        error={Boolean(errors.name_singular)}
        helperText={errors.name_singular ?? 'e.g. Job Site'}
        sx={{ flex: 1 }}
      />
      <TextField
        label="Several are called"
        value={plural}
        onChange={(event) => setPlural(event.target.value)}
        size="small"
        error={Boolean(errors.name_plural)}
        helperText={errors.name_plural ?? 'e.g. Job Sites (the menu label)'}
        sx={{ flex: 1 }}
      />
      <Button
        variant="contained"
        disabled={!changed || busy}
        onClick={async () => {
          setBusy(true);
          const outcome = await writes.renameSchema(schema, {
            name_singular: singular.trim(),
            name_plural: plural.trim(),
          });
          setBusy(false);
          setErrors(outcome.errors ?? {});
        }}
        sx={{ mt: { sm: 0.25 } }}
      >
        Save names
      </Button>
    </Stack>
  );
}

function FieldsEditor({ schema }: { schema: RecordSchema }) {
  const writes = useSchemaWrites();
  const dataProvider = useAppDataProvider();
  // `?add=field` (the read-only page's "Add a custom field") opens the new field's dialog at once.
  const [searchParams] = useSearchParams();
  const [editing, setEditing] = useState<SchemaField | 'new' | null>(() =>
    searchParams.get('add') === 'field' ? 'new' : null,
  );
  const [removing, setRemoving] = useState<SchemaField | null>(null);
  const { impact: removalImpact } = useImpact(
    removing ? () => dataProvider.fieldImpact(removing.id) : null,
    removing?.id,
  );
  const [busy, setBusy] = useState(false);
  const move = async (index: number, by: number) => {
    const ids = schema.fields.map((field) => Number(field.id));
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    setBusy(true);
    await writes.reorderFields(schema, ids);
    setBusy(false);
  };
  return (
    <>
      <Stack divider={<Box sx={{ borderBottom: 1, borderColor: 'divider' }} />} data-testid="fields-editor">
        {schema.fields.map((field, index) => (
          <Stack
            key={field.id}
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', py: 0.75 }}
            data-field-row={field.slug}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {field.name}
                {field.required && (
                  <Typography component="span" color="error">
                    {' '}
                    *
                  </Typography>
                )}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {FIELD_TYPE_LABELS[field.type] ?? field.type} · <code>{field.slug}</code>
              </Typography>
            </Box>
            <Chip
              size="small"
              variant="outlined"
              label={field.column ? 'Built in' : field.category === 'importer' ? 'Importer' : 'Custom'}
              sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
            />
            <Tooltip title="Move up">
              <span>
                <IconButton
                  size="small"
                  aria-label={`Move ${field.name} up`}
                  disabled={busy || index === 0}
                  onClick={() => void move(index, -1)}
                >
                  <ArrowUpIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title="Move down">
              <span>
                <IconButton
                  size="small"
                  aria-label={`Move ${field.name} down`}
                  disabled={busy || index === schema.fields.length - 1}
                  onClick={() => void move(index, 1)}
                >
                  <ArrowDownIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title="Edit">
              <IconButton size="small" aria-label={`Edit ${field.name}`} onClick={() => setEditing(field)}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={field.column ? 'Built-in fields cannot be removed (hide them with a rule)' : 'Remove'}>
              <span>
                <IconButton
                  size="small"
                  aria-label={`Remove ${field.name}`}
                  disabled={field.column}
                  onClick={() => setRemoving(field)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
        ))}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        variant="outlined"
        sx={{ mt: 2 }}
        onClick={() => setEditing('new')}
        data-testid="add-field"
      >
        Add a field
      </Button>
      {editing && (
        <FieldDialog schema={schema} field={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <Confirm
        isOpen={removing !== null}
        loading={busy}
        title={`Remove the field “${removing?.name ?? ''}”?`}
        content={<ImpactSummary impact={removalImpact} />}
        confirm="Remove"
        onConfirm={async () => {
          setBusy(true);
          await writes.deleteField(removing!);
          setBusy(false);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

/** What deleting the type affects; its records in the trash can be restored or deleted for good first. */
function TypeDeletion({
  schema,
  impact,
  onTrashDone,
}: {
  schema: RecordSchema;
  impact: ChangeImpact | null;
  onTrashDone: () => void;
}) {
  const dataProvider = useAppDataProvider();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const trashed = impact?.records?.trashed ?? 0;
  const act = async (path: 'restore-trash' | 'purge-trash') => {
    setBusy(true);
    try {
      const answer = await dataProvider.action('schemas', { id: schema.id, action: path });
      setDone(answer.meta?.message ?? null);
    } catch (error) {
      setDone((error as { message?: string })?.message ?? 'That did not work.');
    }
    setBusy(false);
    onTrashDone();
  };
  return (
    <Stack spacing={1.5}>
      <ImpactSummary impact={impact} />
      {trashed > 0 && (
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" disabled={busy} onClick={() => void act('restore-trash')}>
            Restore them
          </Button>
          <Button size="small" variant="outlined" color="error" disabled={busy} onClick={() => void act('purge-trash')}>
            Delete them for good
          </Button>
        </Stack>
      )}
      {done && (
        <Typography variant="body2" role="status">
          {done}
        </Typography>
      )}
    </Stack>
  );
}

export default function SchemaEdit() {
  const { id } = useParams<{ id: string }>();
  const { data, error, isPending } = useSchemaRecord(id);
  const navigate = useNavigate();
  const writes = useSchemaWrites();
  const dataProvider = useAppDataProvider();
  const [deleting, setDeleting] = useState(false);
  const schema = data ? asRecordSchema(data) : undefined;
  const { impact: deletionImpact, reload: reloadDeletion } = useImpact(
    deleting && schema ? () => dataProvider.typeImpact(schema.id) : null,
    deleting ? schema?.id : null,
  );
  useDocumentTitle(schema ? `Edit ${titleCase(schema.name_plural)} · Schemas` : 'Schemas');
  if (error) return <LoadFailed error={error} />;
  if (isPending || !schema) return <PageLoading />;
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={`Schema: ${titleCase(schema.name_plural)}`} />
      <PageHeader
        title={`Edit ${titleCase(schema.name_plural)}`}
        subtitle={`Type ${schema.type} · ${schema.built_in ? 'built in' : 'created here'}`}
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
            {!schema.built_in && (
              <Button
                size="small"
                color="error"
                variant="outlined"
                startIcon={<DeleteIcon />}
                onClick={() => setDeleting(true)}
              >
                Delete record type
              </Button>
            )}
          </>
        }
      />
      <Stack spacing={2}>
        <Section title="Names">
          <NamesForm schema={schema} />
        </Section>
        <Section title="Fields">
          <FieldsEditor schema={schema} />
        </Section>
        <Section title="Rules">
          <LogicEditor schema={schema} />
        </Section>
      </Stack>
      <Confirm
        isOpen={deleting}
        title={`Delete the record type ${schema.name_plural}?`}
        content={<TypeDeletion schema={schema} impact={deletionImpact} onTrashDone={reloadDeletion} />}
        confirm="Delete"
        onConfirm={async () => {
          const done = await writes.deleteSchema(schema);
          setDeleting(false);
          if (done) await navigate('/schemas');
        }}
        onClose={() => setDeleting(false)}
      />
    </Box>
  );
}
