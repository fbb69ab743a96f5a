/**
 * The generated create screen (`/{resource}/create`): the schema's form in react-admin's CreateBase (pessimistic:
 * a 422 puts the server's message on each field); saving sends only the schema's editable fields, shows the
 * server's message and opens the new record.
 */

import Box from '@mui/material/Box';
import { type ReactNode, useMemo } from 'react';
import { CreateBase, Title } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { titleCase } from '../i18n/labels';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useDescriptors } from './hooks';
import { RecordForm } from './RecordForm';
import { type RecordSchema, writableValues } from './schema';
import { useSaveError, useServerMessage } from './serverMessage';
import { MissingSchema, useRecordScreen } from './ui';

/** Initial values from the URL: `?source={"type":"union"}` (react-admin's convention), e.g. from a category list. */
export function valuesFromSearch(search: string): Record<string, unknown> {
  const raw = new URLSearchParams(search).get('source');
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function CreateForm({ schema, defaults }: { schema: RecordSchema; defaults: Record<string, unknown> }) {
  const descriptors = useDescriptors(schema);
  const navigate = useNavigate();
  useServerMessage(`${titleCase(schema.name_singular)} created successfully.`);
  return (
    <RecordForm schema={schema} descriptors={descriptors} defaultValues={defaults} onCancel={() => navigate(-1)} />
  );
}

export interface RecordCreateProps {
  resource?: string;
  /** Initial values under those of the URL. */
  defaults?: Record<string, unknown>;
  title?: string;
  subtitle?: ReactNode;
  /** Where to go once saved (default: the new record's page). */
  onCreated?: (record: Record<string, any>) => void;
}

export default function RecordCreate({
  resource: resourceProp,
  defaults: given,
  title: givenTitle,
  subtitle,
  onCreated,
}: RecordCreateProps) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const navigate = useNavigate();
  const location = useLocation();
  const defaults = useMemo(() => ({ ...given, ...valuesFromSearch(location.search) }), [given, location.search]);
  const onError = useSaveError();
  const title = givenTitle ?? (schema ? `Create ${titleCase(schema.name_singular)}` : 'Create');
  useDocumentTitle(title);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;

  return (
    <CreateBase
      resource={resource}
      mutationMode="pessimistic"
      transform={(values: Record<string, unknown>) => writableValues(values, schema)}
      redirect={false}
      mutationOptions={{
        onSuccess: (record: Record<string, any>) =>
          onCreated ? onCreated(record) : navigate(`/${resource}/${record.id}/show`),
        onError,
      }}
    >
      <Box sx={{ maxWidth: 1100 }}>
        <Title title={title} />
        <PageHeader title={title} subtitle={subtitle} />
        <CreateForm schema={schema} defaults={defaults} />
      </Box>
    </CreateBase>
  );
}
