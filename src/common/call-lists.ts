/** A call list and the person a caller works, as the API answers them (src/server/call-lists, docs/conversations.md). */

/** The people call lists hold (the conversation's person types). */
export type CallListPersonType = 'contact' | 'recruit' | 'member';

export interface CallListProgress {
  total: number;
  done: number;
  /** Being called now by someone (a claim not yet expired). */
  calling: number;
  left: number;
  /** People done, by the outcome slug of their conversation (`none` without one). */
  outcomes: Record<string, number>;
}

export interface CallList {
  id: number;
  name: string;
  person_type: CallListPersonType;
  /** The people list's query that picked the people: `filter` (its filter values, `q` the search), `filters`. */
  query: Record<string, unknown>;
  script: string | null;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  progress: CallListProgress;
}

export interface CallListEntry {
  id: number;
  call_list_id: number;
  position: number;
  person_type: CallListPersonType;
  person_id: number;
  /** Until when this caller holds the person. */
  claimed_until: string;
}
