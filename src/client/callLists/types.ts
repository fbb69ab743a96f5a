/** Call lists as the API answers them (src/common/call-lists.ts), and how they are counted in words. */
import type { PersonType } from '../conversations/shared';

export type { CallList, CallListEntry } from '../../common/call-lists';

const PEOPLE: Record<PersonType, [string, string]> = {
  contact: ['contact', 'contacts'],
  recruit: ['recruit', 'recruits'],
  member: ['member', 'members'],
};

/** "1 contact", "1,204 recruits". */
export const peopleCount = (count: number, type: PersonType) =>
  `${count.toLocaleString('en-US')} ${PEOPLE[type][count === 1 ? 0 : 1]}`;
