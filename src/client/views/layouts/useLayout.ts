import { useLocation } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { type SavedView, useSavedView } from '../useSavedView';
import { CALENDAR_MODES, type CalendarMode } from './calendar/calendarDates';
import { isKanbanField } from './kanbanColumns';

/** The layouts beside the grid. */
export const LAYOUT_KINDS = ['kanban', 'calendar', 'map', 'gallery'] as const;
export type LayoutKind = (typeof LAYOUT_KINDS)[number];

/** A list's layout other than the grid, with the field it is laid out by and its own settings. */
export interface ListLayout {
  kind: LayoutKind;
  field: FieldDescriptor;
  /** A calendar's end field (a start and end pair). */
  end: FieldDescriptor | null;
  /** A kanban's order field: its cards in that number's order, reordered by writing it (kanbanOrder.ts). */
  rank: FieldDescriptor | null;
  /** A calendar's mode. */
  mode: CalendarMode | undefined;
  /** A gallery's fields under the name (at most four). */
  fields: string[];
}

const editable = (field: FieldDescriptor) => !field.readOnly && !field.computed && !field.multiple;

/** Whether a field can be a calendar's start or end: a date or a date-time the person may change. */
export const isCalendarField = (field: FieldDescriptor) =>
  (field.type === 'date' || field.type === 'datetime') && editable(field);

/** Whether a field can order a kanban's cards: a number the person may change and the list may sort by. */
export const isRankField = (field: FieldDescriptor) => field.type === 'number' && field.sortable && editable(field);

/**
 * Whether a field can lay a list out as the layout: a board by one choice or relation, a calendar by a date, a map by
 * a geo point or by addresses (the first address's coordinates), a gallery by the images of an attachment field.
 */
export const LAYOUT_FITS: Record<LayoutKind, (field: FieldDescriptor) => boolean> = {
  kanban: isKanbanField,
  calendar: isCalendarField,
  map: (field) => field.type === 'geo-point' || field.type === 'addresses',
  gallery: (field) => field.type === 'attachment',
};

/** The most fields a gallery card shows under its name. */
export const GALLERY_FIELDS = 4;

const isLayoutKind = (kind: unknown): kind is LayoutKind => LAYOUT_KINDS.includes(kind as LayoutKind);
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * The layout a list shows: the URL's (`?layout=kanban&by=<field>&rank=<number field>`, `?layout=calendar&by=<start>&end=<end>&mode=week`,
 * `?layout=gallery&by=<attachment field>&fields=a,b`, so a layout can be opened and kept as a link), else the saved
 * view's (`layout` with `settings.field`, `settings.rank`, `settings.end`, `settings.mode`, `settings.fields`). `layout=grid` in the
 * URL shows the grid over a view's layout. Null: the grid. Without a field, the type's first field that fits; a field
 * that is gone or cannot lay out the layout gives the grid.
 */
export function useListLayout(view: SavedView | undefined, descriptors: FieldDescriptor[]): ListLayout | null {
  const { search } = useLocation();
  return layoutOf(new URLSearchParams(search), view, descriptors);
}

export function layoutOf(
  params: URLSearchParams,
  view: SavedView | undefined,
  descriptors: FieldDescriptor[],
): ListLayout | null {
  const fromUrl = params.has('layout');
  const kind = fromUrl ? params.get('layout') : view?.layout;
  if (!isLayoutKind(kind)) return null;
  const settings = fromUrl ? {} : (view?.settings ?? {});
  const setting = (name: string, key = name) => (fromUrl ? params.get(key) : text(settings[name]));
  const by = setting('field', 'by');
  const fits = LAYOUT_FITS[kind];
  const field = by ? descriptors.find((descriptor) => descriptor.slug === by) : descriptors.find(fits);
  if (!field || !fits(field)) return null;
  const endSlug = kind === 'calendar' ? setting('end') : null;
  const end = descriptors.find((descriptor) => descriptor.slug === endSlug && isCalendarField(descriptor)) ?? null;
  const rankSlug = kind === 'kanban' ? setting('rank') : null;
  const rank = descriptors.find((descriptor) => descriptor.slug === rankSlug && isRankField(descriptor)) ?? null;
  const mode = setting('mode');
  const listed = fromUrl ? (params.get('fields')?.split(',') ?? []) : settings.fields;
  const fields = (Array.isArray(listed) ? listed : [])
    .filter((slug): slug is string => descriptors.some((descriptor) => descriptor.slug === slug))
    .slice(0, GALLERY_FIELDS);
  return {
    kind,
    field,
    end: end && end.slug !== field.slug ? end : null,
    rank,
    mode: CALENDAR_MODES.includes(mode as CalendarMode) ? (mode as CalendarMode) : undefined,
    fields,
  };
}

/**
 * The layout "Save as view" keeps (`layout` and its `settings`, views-resource.ts): the URL's when it names one
 * (`layout`, `by`, `rank`, `end`, `mode`, `fields`), else the open view's, else the grid.
 */
export function useLayoutToSave(): { layout: string; settings: Record<string, unknown> } {
  const { search } = useLocation();
  const { view } = useSavedView();
  const params = new URLSearchParams(search);
  const kind = params.get('layout');
  if (!kind) return { layout: view?.layout ?? 'grid', settings: view?.settings ?? {} };
  const settings: Record<string, unknown> = {};
  for (const [name, key] of [
    ['field', 'by'],
    ['end', 'end'],
    ['mode', 'mode'],
    ['rank', 'rank'],
  ] as const) {
    const value = params.get(key);
    if (value) settings[name] = value;
  }
  const fields = params.get('fields');
  if (fields) settings.fields = fields.split(',').slice(0, GALLERY_FIELDS);
  return { layout: kind, settings };
}
