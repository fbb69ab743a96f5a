/**
 * Each person's columns of one list: which are shown (in schema order), their widths and the row density, kept on
 * the server with the person (`preferences["grid:<resource>"]` of the signed-in user, POST /api/profile/preferences)
 * so they follow them to another browser. Nothing stored means the schema's defaults (the first fields that make
 * good columns, fieldTypes defaultColumns).
 */
import { useCallback } from 'react';
import { useStore } from 'react-admin';
import { useSession } from '../../app/hooks';
import { http } from '../../app/services';
import type { GridColumnVisibilityModel, GridDensity } from '@mui/x-data-grid';

export interface GridPreferences {
  /** The slugs of the shown columns; undefined: the schema's defaults. */
  visible?: string[];
  widths?: Record<string, number>;
  density?: GridDensity;
}

export const gridPreferencesKey = (resource: string) => `grid:${resource}`;

/** The person's columns of a list and the setter that keeps them (undefined: back to the defaults). */
export function useGridPreferences(resource: string): [GridPreferences, (next: GridPreferences | undefined) => void] {
  const key = gridPreferencesKey(resource);
  const { user } = useSession();
  const saved = (user?.preferences?.[key] ?? {}) as GridPreferences;
  // This tab's copy since the last sign-in check, shared by the grid and the list's toolbar (export, reset).
  const [local, setLocal] = useStore<GridPreferences | null>(`${user?.id ?? 0}.${key}`, null);
  const set = useCallback(
    (next: GridPreferences | undefined) => {
      setLocal(next ?? {});
      http.post('/api/profile/preferences', { key, value: next ?? null }).catch(() => undefined);
    },
    [key, setLocal],
  );
  return [local ?? saved, set];
}

/** The slugs of the columns shown: the person's choice, else the defaults. */
export function shownColumns(fields: readonly string[], defaults: readonly string[], preferences: GridPreferences): string[] {
  const visible = new Set(preferences.visible ?? defaults);
  return fields.filter((field) => visible.has(field));
}

export function visibilityModel(fields: readonly string[], defaults: readonly string[], preferences: GridPreferences): GridColumnVisibilityModel {
  const shown = new Set(shownColumns(fields, defaults, preferences));
  return Object.fromEntries(fields.map((field) => [field, shown.has(field)]));
}
