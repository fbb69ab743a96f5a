/** The list's records in the layout picked (a view's, or the URL's): kanban, calendar, map or gallery. */
import type { FieldDescriptor } from '../../records/fieldTypes';
import type { RecordSchema } from '../../records/schema';
import { CalendarLayout } from './calendar/CalendarLayout';
import { GalleryLayout } from './GalleryLayout';
import { KanbanBoard } from './KanbanBoard';
import { MapLayout } from './MapLayout';
import type { ListLayout } from './useLayout';

interface LayoutViewProps {
  layout: ListLayout;
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  viewId: number | null;
}

export function LayoutView({ layout, schema, descriptors, viewId }: LayoutViewProps) {
  const { resource } = schema;
  const plural = schema.name_plural || resource;
  const { field } = layout;
  switch (layout.kind) {
    case 'kanban':
      return <KanbanBoard resource={resource} field={field} rank={layout.rank} viewId={viewId} plural={plural} />;
    case 'map':
      return <MapLayout resource={resource} recordType={schema.type} field={field} viewId={viewId} plural={plural} />;
    case 'calendar':
      return (
        <CalendarLayout
          key={`${field.slug}-${layout.end?.slug}`}
          resource={resource}
          field={field}
          end={layout.end}
          viewId={viewId}
          plural={plural}
          initialMode={layout.mode}
        />
      );
    case 'gallery':
      return (
        <GalleryLayout
          resource={resource}
          field={field}
          fields={layout.fields}
          descriptors={descriptors}
          viewId={viewId}
          plural={plural}
        />
      );
  }
}
