/** Imports (docs/imports.md): `/imports`, the upload and the list of imports, and an import's page. */
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const ImportList = lazyPage('ImportList', () => import('./ImportList'));
const ImportShow = lazyPage('ImportShow', () => import('./ImportShow'));

const imports: ClientFeature = {
  resources: {
    imports: {
      list: ImportList,
      show: ImportShow,
      hasCreate: false,
      hasEdit: false,
      recordRepresentation: (record: any) => record?.name ?? `Import ${record?.id}`,
    },
  },
};

export default imports;
