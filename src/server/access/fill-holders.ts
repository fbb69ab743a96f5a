import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { sitesResource } from '../sites/sites-resource.js';
import { visitsResource } from '../visits/visits-resource.js';
import { notesResource, tasksResource } from '../work/work-resources.js';
import { type RecordTypes, refreshHolders } from './holders.js';

/** The built-in types a record's holders are worked out from (sites, and the work that hangs on them). */
const BUILT_IN = [sitesResource, tasksResource, visitsResource, notesResource];
const builtInTypes: RecordTypes = { definitionOf: (type) => BUILT_IN.find((def) => def.type === type) };

/**
 * The holders of every record of the built-in types that keep them, worked out again: for a loader that writes
 * records with SQL of its own rather than through the record service (the demo data, the benchmarks' and tests'
 * large data sets), after it has written them, in its transaction.
 */
export async function fillHolders(db: Kysely<DB>) {
  for (const def of BUILT_IN) if (def.keepsHolders) await refreshHolders(builtInTypes, db, def, 'all');
}
