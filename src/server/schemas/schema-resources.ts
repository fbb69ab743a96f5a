import { logicActionsResource } from './logic-actions-resource.js';
import { logicBlocksResource } from './logic-blocks-resource.js';
import { logicConditionsResource } from './logic-conditions-resource.js';
import { schemaFieldsResource } from './schema-fields-resource.js';
import { schemasResource } from './schemas-resource.js';

/** Record types and their form logic (docs/records.md): one resource per file. */
export const schemaResources = [
  schemasResource,
  schemaFieldsResource,
  logicBlocksResource,
  logicConditionsResource,
  logicActionsResource,
];
