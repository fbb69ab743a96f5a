/** The schema editor (`/schemas`): the record types, their fields and their form logic. */

import { recordLabel } from '../records/label';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const SchemaList = lazyPage('SchemaList', () => import('./SchemaList'));
const SchemaShow = lazyPage('SchemaShow', () => import('./SchemaShow'));
const SchemaEdit = lazyPage('SchemaEdit', () => import('./SchemaEdit'));
const SchemaCreate = lazyPage('SchemaCreate', () => import('./SchemaCreate'));

const schemas: ClientFeature = {
  resources: {
    schemas: {
      list: SchemaList,
      show: SchemaShow,
      edit: SchemaEdit,
      create: SchemaCreate,
      recordRepresentation: (record: any) => record?.name_plural ?? recordLabel(record),
    },
  },
};

export default schemas;
