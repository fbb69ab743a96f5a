import { type RawBuilder, sql } from 'kysely';

/**
 * The person a rule is worked out for, as SQL: their id and the ids of their teams. For a request they are values
 * (bound parameters); for the realtime fan-out, columns of the `users` row `u` being tested, so one query decides for
 * every member of a role at once (access/fan-out.ts).
 */
export interface Who {
  id: RawBuilder<number>;
  /** Their role's id (-1 for none). */
  roleId: RawBuilder<number>;
  /** What goes inside `in (...)`: a list of ids, or a subquery of them. */
  teamIds: RawBuilder<number>;
  /** For a person: whether they have any team (no team: team rules admit nothing, and are left out). */
  hasTeams: boolean;
  /**
   * The ids of the person's turf regions, read for the rule (AccessPolicy.where), or regions standing for a turf
   * (what lies in a region: the feed's region filter): rules name them.
   */
  turfIds?: readonly number[];
  /**
   * Told when a rule gathers the person's turf and `turfIds` are not known (access/turf.ts): the rule is then built
   * again with them.
   */
  onTurf?: () => void;
  /**
   * The person is a column of each row tested (the fan-out's `users u`), not one value: a rule then asks about the
   * one record at hand (`exists` on its id) rather than gathering all of the person's records once.
   */
  perRow?: boolean;
  /**
   * The rule is asked of a few records named by id (a page's rows read again, a show, a write's check): a part that
   * would gather the whole of the person's turf tests each record's own regions instead (access/turf.ts), and one
   * that would gather every record they or their team hold asks each record's holders (access/compile.ts `held`).
   */
  few?: boolean;
  /**
   * The one record the fan-out asks about, as it was written: a rule may read from it what its SQL would test of the
   * row (a note's parent type), so that the statement leaves out what cannot hold. Only for rules of `type`.
   */
  row?: { type: string; values: Readonly<Record<string, unknown>> };
  /**
   * Who it is, as text (`whoIs`: their id, role and teams, and `few`): the same key, the same rule's SQL, which the
   * policy then keeps (AccessPolicy.where). Absent for anyone else.
   */
  key?: string;
}

/** A signed-in person (id and teams, as AuthUser holds them); `few`: asked of a few records by id (Who `few`). */
export function whoIs(
  user: {
    id: number;
    role_id?: number | null;
    team_id?: number | null;
    team_ids?: number[];
  },
  few = false,
): Who {
  const teams = [...new Set([...(user.team_ids ?? []), ...(user.team_id ? [user.team_id] : [])])];
  return {
    id: sql<number>`${user.id}`,
    roleId: sql<number>`${user.role_id ?? -1}`,
    teamIds: sql<number>`${sql.join(teams.length ? teams : [-1])}`,
    hasTeams: teams.length > 0,
    ...(few ? { few } : {}),
    key: `${user.id}|${user.role_id ?? -1}|${teams.join(',')}|${few ? 'few' : ''}`,
  };
}

/** The `users` row aliased `alias` (its teams: team_user and its main team), asked about the record `row`. */
export function whoIsRow(alias: string, row?: Who['row']): Who {
  const id = sql.ref(`${alias}.id`) as RawBuilder<number>;
  return {
    id,
    roleId: sql<number>`coalesce(${sql.ref(`${alias}.role_id`)}, -1)`,
    teamIds: sql<number>`select wt.team_id from team_user wt where wt.user_id = ${id} union select ${sql.ref(`${alias}.team_id`)}`,
    hasTeams: true,
    perRow: true,
    row,
  };
}

/** Nobody, with these regions as their turf: turf rules then say what lies in those regions. */
export function regionsAsTurf(regionIds: readonly number[]): Who {
  return {
    id: sql<number>`-1`,
    roleId: sql<number>`-1`,
    teamIds: sql<number>`-1`,
    hasTeams: false,
    turfIds: regionIds,
  };
}

/** The people of those teams: their members (team_user) and those whose main team it is. */
export function teamPeople(who: Who): RawBuilder<number> {
  return sql<number>`select tp.user_id from team_user tp where tp.team_id in (${who.teamIds}) union select up.id from users up where up.team_id in (${who.teamIds}) and up.deleted_at is null`;
}

/**
 * `person` (SQL of a user id) is one of `teamPeople(who)`. For the fan-out's members (`perRow`) the person at hand is
 * looked up by id: gathering each member's whole team again, for every member, cost more than the rest of the
 * statement.
 */
export function isTeamPerson(who: Who, person: RawBuilder<number>): RawBuilder<boolean> {
  if (!who.perRow) return sql<boolean>`${person} = any(array(${teamPeople(who)}))`;
  // Their teams, against the member's: as one union, which PostgreSQL runs by the person's id (two plain `exists`
  // became hashed lookups, each hash built again from every user for every member).
  return sql<boolean>`exists (select 1 from (select tp.team_id from team_user tp where tp.user_id = ${person} union all select up.team_id from users up where up.id = ${person} and up.deleted_at is null) pt where pt.team_id in (${who.teamIds}))`;
}
