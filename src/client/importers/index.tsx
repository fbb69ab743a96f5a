/** Importers (docs/imports.md): `/importers`, how a vendor's file maps onto a record type (list, create, edit, show). */
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const screens = () => import('./ImporterScreens');
const ImporterList = lazyPage('ImporterList', async () => ({ default: (await screens()).ImporterList }));
const ImporterCreate = lazyPage('ImporterCreate', async () => ({ default: (await screens()).ImporterCreate }));
const ImporterEdit = lazyPage('ImporterEdit', async () => ({ default: (await screens()).ImporterEdit }));
const ImporterShow = lazyPage('ImporterShow', async () => ({ default: (await screens()).ImporterShow }));

const importers: ClientFeature = {
  resources: {
    importers: {
      list: ImporterList,
      create: ImporterCreate,
      edit: ImporterEdit,
      show: ImporterShow,
      recordRepresentation: (record: any) => record?.name,
    },
  },
};

export default importers;
