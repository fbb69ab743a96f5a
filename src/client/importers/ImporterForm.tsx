/**
 * The importer editor: record type, name, the key matching rows to existing records, column mapping rows
 * (CSV header → target, with suggestions from the header names or a sample file), rules (when a column
 * compares to a value, set a trade), the values new records get (the source of a vendor's sites), protected fields,
 * and whether related records are created.
 */

import AutoFixHighIcon from '@mui/icons-material/AutoFixHigh';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import Papa from 'papaparse';
import { useMemo, useRef, useState } from 'react';
import {
  ArrayInput,
  BooleanInput,
  FormDataConsumer,
  required,
  SelectArrayInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  useNotify,
  useRecordContext,
} from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { fieldTypeModule } from '../../common/field-types';
import { type ImportRecordType, suggestTargets } from '../../common/import-targets';
import { useAppDataProvider, useDescriptors, useSchemaByType } from '../records/hooks';

interface TargetInfo {
  key: string;
  label: string;
  group: string;
}
interface TargetsAnswer {
  /** Every record type an importer may fill (those made in the app included), by type. */
  data: Record<string, { name: string; targets: TargetInfo[]; keys: string[]; fields: string[] }>;
  operators: Array<{ id: string; name: string }>;
  actions: Array<{ id: string; name: string }>;
}

export function useImportTargets() {
  const dataProvider = useAppDataProvider();
  return useQuery({
    queryKey: ['importers', 'targets'],
    queryFn: () => dataProvider.importTargets<TargetsAnswer>(),
    staleTime: 60_000,
  });
}

const RECORD_TYPES = [
  { id: 'site', name: 'Job sites' },
  { id: 'contractor', name: 'Contractors' },
  { id: 'member', name: 'Members' },
];

/** Reads the header row of a sample CSV in the browser (the first 64 KB) and fills the columns with suggestions. */
function SampleFileButton({ type, targets }: { type: ImportRecordType; targets: TargetInfo[] }) {
  const { setValue, getValues } = useFormContext();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const custom = targets
    .filter((t) => t.key.startsWith('custom.'))
    .map((t) => ({ key: t.key.slice(7), label: t.label }));

  const fill = (headers: string[]) => {
    const existing: Array<{ header: string; target: string }> = getValues('columns') ?? [];
    const known = new Set(existing.map((c) => c.header.toLowerCase()));
    const taken = new Set(existing.map((c) => c.target).filter(Boolean));
    const suggestions = suggestTargets(headers, type, custom);
    const added = headers
      .map((header, i) => ({ header, target: taken.has(suggestions[i]) ? '' : suggestions[i] }))
      .filter((c) => c.header && !known.has(c.header.toLowerCase()));
    setValue('columns', [...existing, ...added], { shouldDirty: true });
    notify(
      `${added.length} column${added.length === 1 ? '' : 's'} added from the file's header; ${added.filter((c) => c.target).length} with a suggested target.`,
      { type: 'info' },
    );
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.slice(0, 64 * 1024).text();
    const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: 1, skipEmptyLines: 'greedy' });
    const seen = new Map<string, number>();
    const headers = (parsed.data[0] ?? []).map((cell, i) => {
      const name = String(cell).trim() || `Column ${i + 1}`;
      const count = (seen.get(name.toLowerCase()) ?? 0) + 1;
      seen.set(name.toLowerCase(), count);
      return count > 1 ? `${name} (${count})` : name;
    });
    if (!headers.length) notify('No header row was found in that file.', { type: 'warning' });
    else fill(headers);
    if (input.current) input.current.value = '';
  };

  const suggestForExisting = () => {
    const existing: Array<{ header: string; target: string }> = getValues('columns') ?? [];
    const suggestions = suggestTargets(
      existing.map((c) => c.header),
      type,
      custom,
    );
    setValue(
      'columns',
      existing.map((c, i) => ({ ...c, target: c.target || suggestions[i] })),
      { shouldDirty: true },
    );
  };

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }}>
      <input
        ref={input}
        type="file"
        accept=".csv,.txt,.tsv,.xlsx,text/csv"
        hidden
        onChange={(e) => void onFile(e.target.files?.[0])}
        data-testid="sample-file-input"
      />
      <Button variant="outlined" size="small" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()}>
        Add columns from a sample file
      </Button>
      <Button variant="text" size="small" startIcon={<AutoFixHighIcon />} onClick={suggestForExisting}>
        Suggest targets for empty rows
      </Button>
    </Box>
  );
}

function MappingInputs() {
  const type = (useWatch({ name: 'record_type' }) ?? 'site') as ImportRecordType;
  const columns: Array<{ header: string }> = useWatch({ name: 'columns' }) ?? [];
  const { data } = useImportTargets();
  const targets = data?.data[type]?.targets ?? [];
  const targetChoices = useMemo(
    () => [{ id: '', name: '(not imported)' }, ...targets.map((t) => ({ id: t.key, name: `${t.group} › ${t.label}` }))],
    [targets],
  );
  const keyChoices = (data?.data[type]?.keys ?? []).map((key) => ({
    id: key,
    name: targets.find((t) => t.key === key)?.label ?? key,
  }));
  const fieldChoices = (data?.data[type]?.fields ?? []).map((f) => ({ id: f, name: f.replace(/_/g, ' ') }));
  const headerChoices = columns.filter((c) => c?.header).map((c) => ({ id: c.header, name: c.header }));

  return (
    <>
      <SelectInput
        source="key_target"
        label="Key (matches a row to an existing record)"
        choices={keyChoices}
        emptyText="None: every row makes a new record"
        helperText="Importing the same file again updates the records with this key instead of duplicating them."
        fullWidth
      />
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        Columns
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Each CSV column (by its header) and where its values go. Unmapped columns are ignored.
      </Typography>
      <SampleFileButton type={type} targets={targets} />
      <ArrayInput source="columns" label={false}>
        <SimpleFormIterator inline disableReordering={false} fullWidth>
          <TextInput
            source="header"
            label="CSV header"
            validate={required()}
            helperText={false}
            sx={{ minWidth: 220 }}
          />
          <SelectInput
            source="target"
            label="Goes to"
            choices={targetChoices}
            helperText={false}
            sx={{ minWidth: 300 }}
            emptyValue=""
          />
        </SimpleFormIterator>
      </ArrayInput>

      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        Rules
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        When a column's value matches, set a trade. For example: when Description contains "electrical", set trade
        Electrical.
      </Typography>
      <ArrayInput source="rules" label={false}>
        <SimpleFormIterator inline fullWidth>
          <SelectInput
            source="source"
            label="When column"
            choices={headerChoices}
            validate={required()}
            helperText={false}
            sx={{ minWidth: 200 }}
          />
          <SelectInput
            source="operator"
            label="Operator"
            choices={data?.operators ?? []}
            validate={required()}
            helperText={false}
            sx={{ minWidth: 180 }}
          />
          <TextInput source="value" label="Value" helperText={false} />
          <SelectInput
            source="action"
            label="Action"
            choices={data?.actions ?? [{ id: 'trade-set', name: 'Set trade' }]}
            defaultValue="trade-set"
            helperText={false}
          />
          <TextInput source="action_value" label="Trade" validate={required()} helperText={false} />
        </SimpleFormIterator>
      </ArrayInput>

      <NewRecordValues type={type} />

      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        Options
      </Typography>
      <BooleanInput
        source="create_related"
        label="Create related records (trades, unions, classifications, contractors, contacts) named in the file that do not exist yet"
      />
      <BooleanInput source="all_or_nothing" label="All or nothing: if any row fails, import none of the file" />
      <SelectArrayInput
        source="protected_fields"
        label="Protected fields"
        choices={fieldChoices}
        helperText="Once a person has edited one of these fields by hand, imports leave it alone."
        fullWidth
      />
    </>
  );
}

/**
 * The importer's settings for the records it makes: each single-choice field of the type (a site's source and type)
 * with the value a new record gets when its row leaves that field empty (the importer's `defaults`).
 */
function NewRecordValues({ type }: { type: string }) {
  const descriptors = useDescriptors(useSchemaByType(type)).filter(
    (descriptor) => fieldTypeModule(descriptor.type).groupable && !descriptor.multiple && !descriptor.readOnly,
  );
  if (!descriptors.length) return null;
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
        New records
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        What a record made by this importer gets when its row leaves the field empty: where the records come from
        (Source), for example.
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {descriptors.map((descriptor) => (
          <SelectInput
            key={descriptor.slug}
            source={`defaults.${descriptor.slug}`}
            label={descriptor.label}
            choices={descriptor.choices}
            emptyText="Not set"
            helperText={false}
            sx={{ minWidth: 220 }}
          />
        ))}
      </Box>
    </>
  );
}

/** The built-in types under their usual names, then every type made in the app the server can import into. */
function useRecordTypeChoices() {
  const { data } = useImportTargets();
  const made = Object.entries(data?.data ?? {})
    .filter(([id]) => !RECORD_TYPES.some((type) => type.id === id))
    .map(([id, info]) => ({ id, name: info.name ?? id }));
  return [...RECORD_TYPES, ...made];
}

/** What needs fixing before the importer imports again (a field it maps was deleted): said above the form. */
function ImporterProblems() {
  const record = useRecordContext<{ problems?: string[] }>();
  if (!record?.problems?.length) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="importer-problems">
      This importer needs attention before its next import:
      <ul style={{ margin: 0 }}>
        {record.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </Alert>
  );
}

export function ImporterForm({ creating = false }: { creating?: boolean }) {
  const [error] = useState<string | null>(null);
  const recordTypes = useRecordTypeChoices();
  return (
    <SimpleForm
      defaultValues={
        creating
          ? {
              record_type: 'site',
              create_related: true,
              all_or_nothing: false,
              columns: [],
              rules: [],
              protected_fields: [],
            }
          : undefined
      }
      sx={{ maxWidth: 1100 }}
    >
      {error && <Alert severity="error">{error}</Alert>}
      <ImporterProblems />
      <TextInput source="name" validate={required()} fullWidth />
      <FormDataConsumer>
        {() => (
          <SelectInput
            source="record_type"
            label="Imports"
            choices={recordTypes}
            validate={required()}
            disabled={!creating}
            helperText={
              creating ? 'What each row of the file becomes.' : 'The record type of an importer cannot change.'
            }
          />
        )}
      </FormDataConsumer>
      <TextInput source="description" multiline fullWidth />
      <MappingInputs />
    </SimpleForm>
  );
}
