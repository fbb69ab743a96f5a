/**
 * The map's filter options (GET /api/map/filters) and what the markers and cards read from them: each site type's
 * label and colour, each status's name and colour, each contractor type's label.
 */
import { useEffect, useMemo, useState } from 'react';
import type { MapFilterOptions as FilterOptions } from '../../common/map-types';
import { TYPE_LABELS } from '../i18n/labels';
import { useAppDataProvider } from '../records/hooks';

export function describeMapError(error: unknown): string {
  const e = error as { status?: number; message?: string };
  if (e?.status === 404) return 'The map is switched off for this organisation.';
  if (e?.status === 403) return 'You do not have permission to see the map.';
  return e?.message || 'The map could not load its data.';
}

export function useMapOptions(onError: (message: string) => void) {
  const dataProvider = useAppDataProvider();
  const [options, setOptions] = useState<FilterOptions | null>(null);
  useEffect(() => {
    dataProvider
      .mapFilterOptions()
      .then(setOptions)
      .catch((e) => onError(describeMapError(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const typeLabels = useMemo(() => {
    const labels: Record<string, string> = { ...TYPE_LABELS };
    for (const t of options?.site_types ?? []) labels[String(t.id)] = t.name;
    return labels;
  }, [options]);
  const typeColors = useMemo(
    () => Object.fromEntries((options?.site_types ?? []).map((t) => [String(t.id), t.color])),
    [options],
  );
  const statusColors = useMemo(
    () => Object.fromEntries((options?.statuses ?? []).map((s) => [Number(s.id), s.color])),
    [options],
  );
  const statusLabels = useMemo(
    () => Object.fromEntries((options?.statuses ?? []).map((s) => [Number(s.id), s.name])),
    [options],
  );
  const contractorTypeLabels = useMemo(
    () => Object.fromEntries((options?.contractor_types ?? []).map((t) => [String(t.id), t.name])),
    [options],
  );
  return { options, typeLabels, typeColors, statusColors, statusLabels, contractorTypeLabels };
}
