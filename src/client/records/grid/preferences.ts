/**
 * Each person's columns of one list: which are shown (in schema order), their widths and the row density.
 * Nothing stored means the schema's defaults (the first fields that make good columns, fieldTypes defaultColumns).
 */
import { useStore } from 'react-admin';
import type { GridColumnVisibilityModel, GridDensity } from '@mui/x-data-grid';
import type { FieldDescriptor } from '../fieldTypes';

export interface GridPreferences {
  /** The slugs of the shown columns; undefined: the schema's defaults. */
  visible?: string[];
  widths?: Record<string, number>;
  density?: GridDensity;
}

export const gridPreferencesKey = (resource: string) => `${resource}.grid`;

export function useGridPreferences(resource: string) {
  return useStore<GridPreferences>(gridPreferencesKey(resource), {});
}

/** The slugs of the columns shown: the person's choice, else the defaults. */
export function shownColumns(descriptors: readonly FieldDescriptor[], defaults: readonly string[], preferences: GridPreferences): string[] {
  const visible = new Set(preferences.visible ?? defaults);
  return descriptors.map((descriptor) => descriptor.slug).filter((slug) => visible.has(slug));
}

export function visibilityModel(descriptors: readonly FieldDescriptor[], defaults: readonly string[], preferences: GridPreferences): GridColumnVisibilityModel {
  const shown = new Set(shownColumns(descriptors, defaults, preferences));
  return Object.fromEntries(descriptors.map((descriptor) => [descriptor.slug, shown.has(descriptor.slug)]));
}
