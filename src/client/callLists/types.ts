/** A call list as GET /api/call-lists answers it (src/server/call-lists). */
import type { PersonType } from '../conversations/shared';

export interface CallListProgress {
  total: number;
  done: number;
  calling: number;
  left: number;
  outcomes: Record<string, number>;
}

export interface CallList {
  id: number;
  name: string;
  person_type: PersonType;
  /** The people list's query that picked the people (its filter values). */
  query: { filter?: Record<string, unknown> };
  script: string | null;
  created_by_name: string | null;
  created_at: string;
  progress: CallListProgress;
}

export interface CallListEntry {
  id: number;
  call_list_id: number;
  position: number;
  person_type: PersonType;
  person_id: number;
  claimed_until: string;
}

const PEOPLE: Record<PersonType, [string, string]> = {
  contact: ['contact', 'contacts'],
  recruit: ['recruit', 'recruits'],
  member: ['member', 'members'],
};

/** "1 contact", "1,204 recruits". */
export const peopleCount = (count: number, type: PersonType) =>
  `${count.toLocaleString('en-US')} ${PEOPLE[type][count === 1 ? 0 : 1]}`;
