/**
 * Turns the feature folders into react-admin resources and layout routes. Each feature folder's `index.tsx` exports
 * a `ClientFeature` (its resource screens, the screens it builds from a schema, its routes inside the layout);
 * app/features.ts lists the folders. `<Admin>`'s run-time function child (app/resourceChild.tsx) asks this module
 * for the <Resource> elements: the fixed resources, one per loaded schema and one per resource a feature gives
 * screens. A resource no feature gives screens gets the generic list and show page.
 */
import type { ReactElement } from 'react';
import { CustomRoutes, Resource, type ResourceProps } from 'react-admin';
import { titleCase } from '../i18n/labels';
import type { FeatureMenuItems } from '../layout/menuModel';
import { lazyPage } from '../routing/lazyPage';
import type { Schema } from '../system/types';
import { resourceForType } from './names';

export type ResourceScreens = Partial<
  Pick<
    ResourceProps,
    | 'list'
    | 'show'
    | 'edit'
    | 'create'
    | 'icon'
    | 'recordRepresentation'
    | 'options'
    | 'hasCreate'
    | 'hasEdit'
    | 'hasShow'
    | 'children'
  >
>;
export type SchemaScreensFactory = (schema: Schema) => ResourceScreens | undefined;

/** What a feature folder plugs into the app (its `index.tsx` default export). */
export interface ClientFeature {
  /** Screens of resources, declared whether or not a schema names them. */
  resources?: Readonly<Record<string, ResourceScreens>>;
  /** Screens built from each loaded schema (generated lists, forms, show pages). */
  schemaScreens?: SchemaScreensFactory;
  /** Routes inside the default layout (each with a `key`). */
  routes?: readonly ReactElement[];
  /** Routes outside the layout that open without signing in (each with a `key`): a link in an email. */
  publicRoutes?: readonly ReactElement[];
  /** Rendered once beside the routes, inside every context (each with a `key`): connections, panels, trackers. */
  globals?: readonly ReactElement[];
  /** Shown in the app bar, before the user menu (each with a `key`): the offline indicator. */
  toolbarItems?: readonly ReactElement[];
  /** The entries it adds to the sidebar's main list for this person (after Imports). */
  menuItems?: FeatureMenuItems;
  /** What a menu entry with this `action` does (layout/menuModel.ts `MenuItem.action`), other than signing out. */
  menuActions?: Readonly<Record<string, () => void>>;
}

const GenericList = lazyPage('GenericList', () => import('./GenericList'));
const GenericShow = lazyPage('GenericShow', () => import('./GenericShow'));

/** Resources the server offers before any schema is loaded. */
export const FIXED_RESOURCES: readonly string[] = ['users', 'roles', 'teams', 'features'];

/** The resource names declared for these schemas (fixed ones first, then schemas, then the features' own). */
export function resourceNames(features: readonly ClientFeature[], schemas: readonly Schema[]): string[] {
  const names = new Set(FIXED_RESOURCES);
  for (const schema of schemas) names.add(resourceForType(schema.type));
  for (const feature of features) for (const name of Object.keys(feature.resources ?? {})) names.add(name);
  return [...names];
}

function screensFor(features: readonly ClientFeature[], name: string, schema: Schema | undefined): ResourceScreens {
  let screens: ResourceScreens = { list: GenericList, show: GenericShow };
  if (schema) {
    for (const feature of features)
      if (feature.schemaScreens) screens = { ...screens, ...feature.schemaScreens(schema) };
    screens.options = { label: titleCase(schema.name_plural || schema.type), ...screens.options };
  }
  for (const feature of features) screens = { ...screens, ...feature.resources?.[name] };
  return screens;
}

export function buildResources(features: readonly ClientFeature[], schemas: readonly Schema[]): ReactElement[] {
  const schemaByResource = new Map(schemas.map((schema) => [resourceForType(schema.type), schema]));
  return resourceNames(features, schemas).map((name) => (
    <Resource key={name} name={name} {...screensFor(features, name, schemaByResource.get(name))} />
  ));
}

/** The features' routes inside the default layout. */
export function layoutRoutes(features: readonly ClientFeature[]): ReactElement {
  return <CustomRoutes key="layout-routes">{features.flatMap((feature) => feature.routes ?? [])}</CustomRoutes>;
}
