/** Administration: users (list, show, create, edit) and roles (list, create, and the edit page that is also their show page). */

import { recordLabel } from '../records/label';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const UserList = lazyPage('UserList', () => import('./UserList'));
const UserShow = lazyPage('UserShow', () => import('./UserShow'));
const UserEdit = lazyPage('UserEdit', () => import('./UserEdit'));
const UserCreate = lazyPage('UserCreate', () => import('./UserCreate'));
const RoleList = lazyPage('RoleList', () => import('./RoleList'));
const RoleEdit = lazyPage('RoleEdit', () => import('./RoleEdit'));
const RoleCreate = lazyPage('RoleCreate', () => import('./RoleCreate'));

const admin: ClientFeature = {
  resources: {
    users: {
      list: UserList,
      show: UserShow,
      edit: UserEdit,
      create: UserCreate,
      recordRepresentation: (record: any) => recordLabel(record),
    },
    roles: {
      list: RoleList,
      edit: RoleEdit,
      create: RoleCreate,
      show: RoleEdit,
      recordRepresentation: (record: any) => recordLabel(record),
    },
  },
};

export default admin;
