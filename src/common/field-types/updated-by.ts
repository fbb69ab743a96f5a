import { recordStampType } from './record-stamps.js';

/** Who last changed the record (the author of its latest revision). */
export const updatedBy = recordStampType('updated-by', 'Updated by', 'updated_by');
