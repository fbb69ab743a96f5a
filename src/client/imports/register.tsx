/**
 * Plugs the import screens into the shell (resources/registry.tsx): /imports (upload + list, show) and
 * /importers (list, create, edit, show). Imported once by main.tsx; the screens load on demand.
 */
import { registerResourceScreens } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const ImportList = lazyPage('ImportList', () => import('./ImportList'));
const ImportShow = lazyPage('ImportShow', () => import('./ImportShow'));
const ImporterList = lazyPage('ImporterList', () => import('../importers/ImporterListPage'));
const ImporterCreate = lazyPage('ImporterCreate', () => import('../importers/ImporterCreatePage'));
const ImporterEdit = lazyPage('ImporterEdit', () => import('../importers/ImporterEditPage'));
const ImporterShow = lazyPage('ImporterShow', () => import('../importers/ImporterShowPage'));

registerResourceScreens('imports', { list: ImportList, show: ImportShow, hasCreate: false, hasEdit: false, recordRepresentation: (record: any) => record?.name ?? `Import ${record?.id}` });
registerResourceScreens('importers', { list: ImporterList, create: ImporterCreate, edit: ImporterEdit, show: ImporterShow, recordRepresentation: (record: any) => record?.name });
