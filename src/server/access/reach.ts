import type { FieldSpec, ResourceDefinition } from '../records/resource.js';

/**
 * How a record type is tied to people, teams and sites, read from its fields: what `own`, `team` and `turf` mean for
 * it (access/compile.ts). Nothing here is written per type: a type made in the app with a person field, a team field
 * or a relation to sites gets the same rules as the built-in ones.
 */

/** Some of a type's fields with their names; shared, never changed (see `remembered`). */
export type FieldList = ReadonlyArray<readonly [string, FieldSpec]>;

/**
 * Each answer kept with the fields object it was read from: a type's fields are one object until they change (the
 * merged fields of records/resource.ts), and every compile of every role's policy asks the same questions of them.
 */
const answers = new WeakMap<Record<string, FieldSpec>, Map<string, FieldList>>();

function remembered(fields: Record<string, FieldSpec>, question: string, answer: () => FieldList): FieldList {
  let known = answers.get(fields);
  if (!known) answers.set(fields, (known = new Map()));
  let found = known.get(question);
  if (!found) known.set(question, (found = answer()));
  return found;
}

/** Work a person does on a record, which makes the record theirs too ("the sites those hang on"). */
export const OWN_WORK_TYPES = ['task', 'visit', 'note'] as const;

/**
 * Fields naming a person: relations to users (the organizer, an assignee, who went on a visit) and the `user_id`
 * every table keeps for who created or wrote the row.
 */
export function personFields(fields: Record<string, FieldSpec>): FieldList {
  return remembered(fields, 'person', () =>
    Object.entries(fields).filter(
      ([name, spec]) =>
        spec.storage !== 'virtual' &&
        (spec.references?.table === 'users' || (name === 'user_id' && spec.kind === 'integer')),
    ),
  );
}

/** Fields naming a team. */
export function teamFields(fields: Record<string, FieldSpec>): FieldList {
  return referencing(fields, 'teams');
}

/** Fields naming a role (those a saved view is shared with). */
export function roleFields(fields: Record<string, FieldSpec>): FieldList {
  return referencing(fields, 'roles');
}

/** Fields pointing at rows of `table` (a relation column, a list of ids in `custom`, or a pivot of links). */
export function referencing(fields: Record<string, FieldSpec>, table: string): FieldList {
  return remembered(fields, `to:${table}`, () =>
    Object.entries(fields).filter(
      ([, spec]) =>
        spec.storage !== 'virtual' &&
        spec.references?.table === table &&
        !spec.references.scope &&
        (spec.kind === 'integer' || spec.kind === 'integer[]'),
    ),
  );
}

/** Is `def` a type whose records the sites' fields point at (contractors: general contractor, contractor list)? */
export function pointedAtBySites(def: ResourceDefinition, siteFields: Record<string, FieldSpec>) {
  return referencing(siteFields, def.table);
}
