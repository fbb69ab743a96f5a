/** Small shared pieces of the record screens: loading and error states, the missing-schema notice. */
import Alert from '@mui/material/Alert';
import { useResourceContext } from 'react-admin';
import { useMainData } from '../app/hooks';
import { titleCase } from '../i18n/labels';
import { LoadingScreen } from '../layout/LoadingScreen';
import { isFeatureEnabled } from '../system/mainData';
import { useLiveSchema } from './hooks';
import type { RecordSchema } from './schema';

export function PageLoading() {
  return <LoadingScreen fullHeight={false} />;
}

export function LoadFailed({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'The record could not be loaded.';
  return (
    <Alert severity="error" sx={{ maxWidth: 720 }}>
      {message}
    </Alert>
  );
}

export function MissingSchema({ resource }: { resource: string }) {
  return (
    <Alert severity="info" sx={{ maxWidth: 720 }}>
      The record type of “{resource}” is not available. It may have been removed, or you may not be allowed to see it.
    </Alert>
  );
}

/** Sites, contractors and grievances are behind their feature flags: the menu hides them, and so do their screens. */
const FEATURE_OF_TYPE: Readonly<Record<string, string>> = {
  site: 'sites',
  contractor: 'contractors',
  grievance: 'grievances',
};

/** What to show instead of a screen while its record type's feature is off (null: the feature is on). */
export function useFeatureOff(schema: RecordSchema | undefined) {
  const { features, loaded } = useMainData();
  const feature = schema ? FEATURE_OF_TYPE[schema.type] : undefined;
  if (!schema || !feature || !loaded.features || isFeatureEnabled(features, feature)) return null;
  return (
    <Alert severity="info" sx={{ maxWidth: 720 }}>
      {titleCase(schema.name_plural)} are switched off. An administrator can switch them on under Features.
    </Alert>
  );
}

/**
 * What every generated screen starts from: its resource (the prop, else react-admin's context), the live schema
 * and what to show while the type's feature is off.
 */
export function useRecordScreen(resourceProp: string | undefined) {
  const resourceFromContext = useResourceContext();
  const resource = resourceProp ?? resourceFromContext!;
  const schema = useLiveSchema(resource);
  const featureOff = useFeatureOff(schema);
  return { resource, schema, featureOff };
}
