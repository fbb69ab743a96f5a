/**
 * Each person's columns of one list: which are shown, in which order, their widths and the row density, kept on
 * the server with the person (`preferences["grid:<resource>"]` of the signed-in user, POST /api/profile/preferences)
 * so they follow them to another browser. Nothing stored means the schema's defaults (the first fields that make
 * good columns, fieldTypes defaultColumns).
 */

import type { GridColumnVisibilityModel, GridDensity } from '@mui/x-data-grid';
import { createContext, useCallback, useContext } from 'react';
import { useStore } from 'react-admin';
import { useSession } from '../../app/hooks';
import { useAppDataProvider } from '../hooks';

export interface GridPreferences {
  /** The slugs of the shown columns; undefined: the schema's defaults. */
  visible?: string[];
  /** The slugs in the order the person put them; fields not in it follow in schema order. */
  order?: string[];
  widths?: Record<string, number>;
  density?: GridDensity;
}

export const gridPreferencesKey = (resource: string) => `grid:${resource}`;

/** Nothing chosen: one object, so that the grid's models made from it keep their identity between renders. */
const NO_PREFERENCES: GridPreferences = Object.freeze({});

type PreferencesAndSetter = [GridPreferences, (next: GridPreferences | undefined) => void];

/**
 * Columns kept elsewhere than with the person, for one list: an open saved view's (views/viewColumns.ts), whose
 * columns the grid shows and whose changes mark the view changed instead of changing the person's own.
 */
export interface ColumnsOverride {
  listKey: string;
  preferences: GridPreferences;
  set: (next: GridPreferences | undefined) => void;
}
export const ColumnsOverrideContext = createContext<ColumnsOverride | null>(null);

/** The columns of a list the grid, the export and "Reset columns" read: an open view's, else the person's. */
export function useGridPreferences(resource: string): PreferencesAndSetter {
  const own = usePersonGridPreferences(resource);
  const override = useContext(ColumnsOverrideContext);
  return override && override.listKey === resource ? [override.preferences, override.set] : own;
}

/** The person's columns of a list and the setter that keeps them (undefined: back to the defaults). */
export function usePersonGridPreferences(resource: string): PreferencesAndSetter {
  const key = gridPreferencesKey(resource);
  const { user } = useSession();
  const saved = (user?.preferences?.[key] ?? NO_PREFERENCES) as GridPreferences;
  // This tab's copy since the last sign-in check, shared by the grid and the list's toolbar (export, reset).
  const [local, setLocal] = useStore<GridPreferences | null>(`${user?.id ?? 0}.${key}`, null);
  const dataProvider = useAppDataProvider();
  const set = useCallback(
    (next: GridPreferences | undefined) => {
      setLocal(next ?? {});
      dataProvider.savePreference(key, next ?? null).catch(() => undefined);
    },
    [key, setLocal, dataProvider],
  );
  return [local ?? saved, set];
}

/** Every slug in the person's order: those they placed first, in their order, then the others in schema order. */
export function orderedFields(fields: readonly string[], order: readonly string[] | undefined): string[] {
  if (!order?.length) return [...fields];
  const known = new Set(fields);
  const placed = order.filter((field) => known.has(field));
  const seen = new Set(placed);
  return [...placed, ...fields.filter((field) => !seen.has(field))];
}

/**
 * The order after moving `field` one shown column left (-1) or right (1): it takes the place of the nearest shown
 * column that way (hidden columns between keep their places). Unchanged at either end.
 */
export function moveColumn(
  ordered: readonly string[],
  shown: ReadonlySet<string>,
  field: string,
  direction: -1 | 1,
): string[] {
  const from = ordered.indexOf(field);
  if (from === -1) return [...ordered];
  let to = from + direction;
  while (to >= 0 && to < ordered.length && !shown.has(ordered[to])) to += direction;
  if (to < 0 || to >= ordered.length) return [...ordered];
  const next = [...ordered];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/** The slugs of the columns shown, in the person's order: their choice, else the defaults. */
export function shownColumns(
  fields: readonly string[],
  defaults: readonly string[],
  preferences: GridPreferences,
): string[] {
  const visible = new Set(preferences.visible ?? defaults);
  return orderedFields(fields, preferences.order).filter((field) => visible.has(field));
}

export function visibilityModel(
  fields: readonly string[],
  defaults: readonly string[],
  preferences: GridPreferences,
): GridColumnVisibilityModel {
  const shown = new Set(shownColumns(fields, defaults, preferences));
  return Object.fromEntries(fields.map((field) => [field, shown.has(field)]));
}
