import { recordStampType } from './record-stamps.js';

/** When the record was made. */
export const createdAt = recordStampType('created-at', 'Created at', 'created_at');
