/**
 * The people conversations are with: contacts, recruits and members. A conversation names one of them in the field
 * of its type (`contact_id`, `recruit_id`, `member_id`); `person_type` and `person_id` say which, whatever the field.
 */
export const PERSON_TYPES = ['contact', 'recruit', 'member'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

export const personField = (type: PersonType) => `${type}_id` as const;

export const isPersonType = (value: unknown): value is PersonType =>
  typeof value === 'string' && (PERSON_TYPES as readonly string[]).includes(value);

/** The resource of a person type (`contact` -> `contacts`). */
export const personResource = (type: PersonType) => `${type}s`;

/** Which person a conversation's values (over the record as it was) name: none, one, or more than one. */
export function personOf(values: Record<string, unknown>): Array<{ type: PersonType; id: number }> {
  return PERSON_TYPES.flatMap((type) => {
    const id = values[personField(type)];
    return typeof id === 'number' ? [{ type, id }] : [];
  });
}
