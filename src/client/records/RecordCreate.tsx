/** The generated create screen (`/{resource}/create`): the schema's form; saves, shows the server's message, opens the new record. */
import { useMemo } from 'react';
import { Title } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import { titleCase } from '../i18n/labels';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useDescriptors } from './hooks';
import { useRecordMutations } from './mutations';
import { RecordForm } from './RecordForm';
import { writableValues } from './schema';
import { PageHeader, MissingSchema, useRecordScreen } from './ui';

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

export default function RecordCreate({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const descriptors = useDescriptors(schema);
  const { create } = useRecordMutations(resource);
  const navigate = useNavigate();
  const location = useLocation();
  const defaults = useMemo(() => valuesFromSearch(location.search), [location.search]);
  const title = schema ? `Create ${titleCase(schema.name_singular)}` : 'Create';
  useDocumentTitle(title);
  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;

  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={title} />
      <PageHeader title={title} />
      <RecordForm
        schema={schema}
        descriptors={descriptors}
        defaultValues={defaults}
        onCancel={() => navigate(-1)}
        onSubmit={async (values) => {
          const outcome = await create(writableValues(values, schema), `${titleCase(schema.name_singular)} created successfully.`);
          if (outcome.record) {
            navigate(`/${resource}/${outcome.record.id}/show`);
            return;
          }
          return outcome.errors;
        }}
      />
    </Box>
  );
}
