/**
 * THE EXTENSION POINT for record screens. `<Admin>` gets a run-time function child (app/App.tsx) that asks
 * this module for its <Resource> elements: the fixed resources the server offers today, plus one per loaded
 * schema. A later issue plugs generated or hand-written screens in with `registerResourceScreens` (one
 * resource) or `registerSchemaScreens` (a factory for every schema-defined resource); anything not plugged in
 * gets the generic guesser list and show page.
 *
 * Screens named in SPEC section 2 that are not resources yet get a PLACEHOLDER route (pages/PlaceholderPage)
 * until a resource with that name is declared.
 */
import type { ComponentType, ReactElement } from 'react';
import { CustomRoutes, Resource, type ResourceProps } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { lazyPage } from '../routing/lazyPage';
import { resourceForType } from './names';
import type { Schema } from '../system/types';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { insightRoutes } from '../reports/routes';
import { mapRoutes } from '../map/routes';
import { assistantRoutes } from '../assistant/routes';

export type ResourceScreens = Partial<Pick<ResourceProps, 'list' | 'show' | 'edit' | 'create' | 'icon' | 'recordRepresentation' | 'options' | 'hasCreate' | 'hasEdit' | 'hasShow' | 'children'>>;
export type SchemaScreensFactory = (schema: Schema) => ResourceScreens | undefined;

const GenericList = lazyPage('GenericList', () => import('./GenericList'));
const GenericShow = lazyPage('GenericShow', () => import('./GenericShow'));
const ProfilePage = lazyPage('ProfilePage', () => import('../profile/ProfilePage'));
const PlaceholderPage = lazyPage<{ title: string }>('PlaceholderPage', () => import('../pages/PlaceholderPage'));

/** Resources the server offers before any schema is loaded. */
export const FIXED_RESOURCES: readonly string[] = ['users', 'roles', 'teams', 'features'];

const screensByResource = new Map<string, ResourceScreens>();
const schemaFactories: SchemaScreensFactory[] = [];

/** Plug screens in for one resource (e.g. `registerResourceScreens('users', {list: UserList, edit: UserEdit})`). */
export function registerResourceScreens(resource: string, screens: ResourceScreens): void {
  screensByResource.set(resource, { ...screensByResource.get(resource), ...screens });
}

/** Plug a factory in that builds screens from a schema (generated lists, forms, show pages). */
export function registerSchemaScreens(factory: SchemaScreensFactory): void {
  schemaFactories.push(factory);
}

/** The resource names declared for these schemas (fixed ones first). */
export function resourceNames(schemas: readonly Schema[]): string[] {
  const names = new Set(FIXED_RESOURCES);
  for (const schema of schemas) names.add(resourceForType(schema.type));
  // Resources given screens with registerResourceScreens are declared too (tags, tasks, schemas...).
  for (const name of screensByResource.keys()) names.add(name);
  return [...names];
}

function screensFor(name: string, schema: Schema | undefined): ResourceScreens {
  let screens: ResourceScreens = { list: GenericList, show: GenericShow };
  if (schema) {
    for (const factory of schemaFactories) screens = { ...screens, ...factory(schema) };
    screens.options = { label: titleCase(schema.name_plural || schema.type), ...screens.options };
  }
  return { ...screens, ...screensByResource.get(name) };
}

export function buildResources(schemas: readonly Schema[]): ReactElement[] {
  const schemaByResource = new Map(schemas.map((schema) => [resourceForType(schema.type), schema]));
  return resourceNames(schemas).map((name) => <Resource key={name} name={name} {...screensFor(name, schemaByResource.get(name))} />);
}

/** Screens of SPEC section 2 that later issues build: [path, title]. */
const PLANNED_SCREENS: ReadonlyArray<readonly [string, string]> = [
  ['actions', 'Activity'],
  ['tasks', 'Tasks'],
  ['notifications', 'Notifications'],
  ['contacts', 'Contacts'],
  ['contractors', 'Contractors'],
  ['sites', 'Job Sites'],
  ['recruits', 'Recruits'],
  ['members', 'Members'],
  ['grievances', 'Grievances'],
  ['imports', 'Imports'],
  ['importers', 'Importers'],
  ['schemas', 'Schemas'],
  ['tags', 'Tags'],
  ['building-types', 'Building Types'],
  ['classifications', 'Classifications'],
  ['classification-types', 'Classification Types'],
  ['dispatch-types', 'Dispatch Types'],
  ['trades', 'Crafts'],
  ['unions', 'Unions'],
  ['site-phases', 'Site Phases'],
  ['site-statuses', 'Site Statuses'],
  ['contact-statuses', 'Contact Statuses'],
  ['reports/market-share', 'Market Share'],
];

/** Routes inside the default layout: the profile, /crafts (trades), and placeholders for planned screens. */
export function layoutRoutes(schemas: readonly Schema[]): ReactElement {
  const declared = new Set(resourceNames(schemas));
  const titleOf = (path: string, fallback: string) => {
    const schema = schemas.find((candidate) => resourceForType(candidate.type) === path);
    return schema?.name_plural ? titleCase(schema.name_plural) : fallback;
  };
  return (
    <CustomRoutes key="layout-routes">
      <Route path="/settings" element={<ProfilePage />} />
      {insightRoutes}
      {mapRoutes}
      {assistantRoutes}
      <Route path="/crafts/*" element={<Navigate to="/trades" replace />} />
      {PLANNED_SCREENS.filter(([path]) => !declared.has(path)).map(([path, title]) => (
        <Route key={path} path={`/${path}/*`} element={<PlaceholderPage title={titleOf(path, title)} />} />
      ))}
    </CustomRoutes>
  );
}

export { TYPE_LABELS };
export type { ComponentType };
