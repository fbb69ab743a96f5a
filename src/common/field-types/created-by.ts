import { recordStampType } from './record-stamps.js';

/** Who made the record (the author of its first revision). */
export const createdBy = recordStampType('created-by', 'Created by', 'created_by');
