import type { WriteGeneration } from '../db/write-tracking.js';
import type { ResourceDefinition } from './resource.js';

/** Past this many names of one type, the type's kept names start again (a bound, not a need). */
const MAX_PER_TYPE = 50_000;

/**
 * The names of linked records (representation.ts nameLinks) of types every reader reads alike (no row rule, category
 * or owner limits them for that person: RecordService.readsAlike), kept until their table is written. Only where this
 * process is the only writer (READ_CACHE on the embedded database): a page of sites then names its status, phase,
 * building type, trades, regions and teams from memory instead of a union over eight tables.
 */
export class KeptNames {
  private readonly types = new Map<string, { stamp: string; names: Map<number, string | null> }>();

  constructor(private readonly writes: WriteGeneration) {}

  /** What `keep` is given: read before the names are. */
  stamp(def: ResourceDefinition): string {
    return this.writes.tableStamp(def.table);
  }

  /** The kept names of these ids (null: the row has no name or does not exist), and the ids not kept. */
  lookup(def: ResourceDefinition, ids: readonly number[]): { known: Map<number, string | null>; missing: number[] } {
    const kept = this.types.get(def.name);
    const names = kept && kept.stamp === this.stamp(def) ? kept.names : null;
    const known = new Map<number, string | null>();
    const missing: number[] = [];
    for (const id of ids) {
      const name = names?.get(id);
      if (name === undefined) missing.push(id);
      else known.set(id, name);
    }
    return { known, missing };
  }

  /** Keeps what was read for `ids` (those not in `found` have no name), unless the table was written meanwhile. */
  keep(def: ResourceDefinition, stamp: string, ids: readonly number[], found: ReadonlyMap<number, string>) {
    if (stamp !== this.stamp(def)) return;
    let kept = this.types.get(def.name);
    if (!kept || kept.stamp !== stamp || kept.names.size > MAX_PER_TYPE) {
      kept = { stamp, names: new Map() };
      this.types.set(def.name, kept);
    }
    for (const id of ids) kept.names.set(id, found.get(id) ?? null);
  }
}
