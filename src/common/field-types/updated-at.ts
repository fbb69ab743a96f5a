import { recordStampType } from './record-stamps.js';

/** When the record was last changed. */
export const updatedAt = recordStampType('updated-at', 'Updated at', 'updated_at');
