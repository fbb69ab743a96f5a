/** A grid cell that shows react-admin fields reading its row as the record (useRecordContext, ReferenceField). */

import type { GridColDef } from '@mui/x-data-grid';
import type { ComponentType } from 'react';
import { RecordContextProvider } from 'react-admin';

export const recordCell =
  (Component: ComponentType): GridColDef['renderCell'] =>
  ({ row }) => (
    <RecordContextProvider value={row}>
      <Component />
    </RecordContextProvider>
  );
