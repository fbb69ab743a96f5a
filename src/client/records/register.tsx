/**
 * Plugs the record screens into the shell (resources/registry.tsx): a generated list, create, edit and show page
 * (and a deleted-records view at /{resource}/deleted) for every record type, the types the server serves without
 * a schema (tags, features), and the hand-made screens the issue asks for: users, roles, the schema editor, tasks,
 * notifications and the revision index. Everything loads on demand (lazyPage); this module itself is tiny and is
 * imported once by the app bootstrap (main.tsx).
 */
import type { ComponentType } from 'react';
import { Route } from 'react-router-dom';
import { registerResourceScreens, registerSchemaScreens, type ResourceScreens } from '../resources/registry';
import { resourceForType } from '../resources/names';
import { lazyPage } from '../routing/lazyPage';
import { recordLabel } from './label';
import { FIXED_SCHEMAS } from './schema';

type ResourceProp = { resource?: string };

const RecordListPage = lazyPage<ResourceProp>('RecordList', () => import('./RecordList'));
const RecordCreatePage = lazyPage<ResourceProp>('RecordCreate', () => import('./RecordCreate'));
const RecordEditPage = lazyPage<ResourceProp>('RecordEdit', () => import('./RecordEdit'));
const RecordShowPage = lazyPage<ResourceProp>('RecordShow', () => import('./RecordShow'));
const DeletedListPage = lazyPage<ResourceProp>('DeletedList', () => import('./DeletedList'));

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

registerSchemaScreens((schema) => generatedScreens((schema as { resource?: string }).resource ?? resourceForType(schema.type)));

// Served without a stored schema (tags, features): described by their files in schemas/fixed/.
for (const schema of FIXED_SCHEMAS) registerResourceScreens(schema.resource, generatedScreens(schema.resource));

// Administration.
const UserList = lazyPage('UserList', () => import('../admin/UserList'));
const UserShow = lazyPage('UserShow', () => import('../admin/UserShow'));
const UserEdit = lazyPage('UserEdit', () => import('../admin/UserEdit'));
const UserCreate = lazyPage('UserCreate', () => import('../admin/UserCreate'));
registerResourceScreens('users', { list: UserList, show: UserShow, edit: UserEdit, create: UserCreate, recordRepresentation: (record: any) => recordLabel(record) });

const RoleList = lazyPage('RoleList', () => import('../admin/RoleList'));
const RoleEdit = lazyPage('RoleEdit', () => import('../admin/RoleEdit'));
const RoleCreate = lazyPage('RoleCreate', () => import('../admin/RoleCreate'));
registerResourceScreens('roles', { list: RoleList, edit: RoleEdit, create: RoleCreate, show: RoleEdit, recordRepresentation: (record: any) => recordLabel(record) });

// The schema editor.
const SchemaList = lazyPage('SchemaList', () => import('../schemas/SchemaList'));
const SchemaShow = lazyPage('SchemaShow', () => import('../schemas/SchemaShow'));
const SchemaEdit = lazyPage('SchemaEdit', () => import('../schemas/SchemaEdit'));
const SchemaCreate = lazyPage('SchemaCreate', () => import('../schemas/SchemaCreate'));
registerResourceScreens('schemas', { list: SchemaList, show: SchemaShow, edit: SchemaEdit, create: SchemaCreate, recordRepresentation: (record: any) => record?.name_plural ?? recordLabel(record) });

// Work and history.
const TaskList = lazyPage('TaskList', () => import('../work/TaskList'));
registerResourceScreens('tasks', { list: TaskList });
const NotificationList = lazyPage('NotificationList', () => import('../work/NotificationList'));
registerResourceScreens('notifications', { list: NotificationList });
const RevisionList = lazyPage('RevisionList', () => import('./history/RevisionList'));
registerResourceScreens('revisions', { list: RevisionList });
