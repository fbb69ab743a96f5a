/**
 * The record screens: a generated list, create, edit and show page (and a deleted-records view at
 * /{resource}/deleted) for every record type, for the types the server serves without a schema (tags, features),
 * and the revision index. Everything loads on demand (lazyPage).
 */
import type { ComponentType } from 'react';
import { Navigate, Route } from 'react-router-dom';
import { resourceForType } from '../resources/names';
import type { ClientFeature, ResourceScreens } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';
import { recordLabel } from './label';
import { FIXED_SCHEMAS } from './schema';

type ResourceProp = { resource?: string };

const RecordListPage = lazyPage<ResourceProp>('RecordList', () => import('./RecordList'));
/** The list screen's code, started early for a list opened by its address (prefetchList.ts). */
export const preloadRecordList = () => RecordListPage.preload();
const RecordCreatePage = lazyPage<ResourceProp>('RecordCreate', () => import('./RecordCreate'));
const RecordEditPage = lazyPage<ResourceProp>('RecordEdit', () => import('./RecordEdit'));
const RecordShowPage = lazyPage<ResourceProp>('RecordShow', () => import('./RecordShow'));
const DeletedListPage = lazyPage<ResourceProp>('DeletedList', () => import('./DeletedList'));
const RevisionList = lazyPage('RevisionList', () => import('./history/RevisionList'));

const cache = new Map<string, ResourceScreens>();

/** The generated screens of one resource (the same component identities every time, so routes stay stable). */
export function generatedScreens(resource: string): ResourceScreens {
  const cached = cache.get(resource);
  if (cached) return cached;
  const bind = (Page: ComponentType<ResourceProp>, name: string) => {
    const Bound = () => <Page resource={resource} />;
    Bound.displayName = `${name}(${resource})`;
    return Bound;
  };
  const screens: ResourceScreens = {
    list: bind(RecordListPage, 'List'),
    create: bind(RecordCreatePage, 'Create'),
    edit: bind(RecordEditPage, 'Edit'),
    show: bind(RecordShowPage, 'Show'),
    recordRepresentation: (record: any) => recordLabel(record),
    children: <Route path="deleted" element={<DeletedListPage resource={resource} />} />,
  };
  cache.set(resource, screens);
  return screens;
}

const records: ClientFeature = {
  schemaScreens: (schema) =>
    generatedScreens((schema as { resource?: string }).resource ?? resourceForType(schema.type)),
  resources: {
    // Served without a stored schema (tags, features): described by their files in schemas/fixed/.
    ...Object.fromEntries(FIXED_SCHEMAS.map((schema) => [schema.resource, generatedScreens(schema.resource)])),
    revisions: { list: RevisionList },
  },
  // The trades are called crafts in the menu.
  routes: [<Route key="crafts" path="/crafts/*" element={<Navigate to="/trades" replace />} />],
};

export default records;
