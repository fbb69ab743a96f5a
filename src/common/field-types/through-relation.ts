import { OptionProblem, type SiblingField } from './define.js';

/** A relation field of this record type to records of another, with that type and its fields. */
export interface ThroughRelation {
  link: SiblingField;
  other: string;
  related: readonly SiblingField[];
}

/**
 * The relation field `slug` of this type that a lookup or a rollup reads the related records through (`options.through`),
 * or what is wrong with it: not a relation to records, or kept in a list table.
 */
export function throughRelation(
  slug: string,
  fields: readonly SiblingField[] | undefined,
  typeFields: ((type: string) => readonly SiblingField[] | undefined) | undefined,
  reading: string,
): ThroughRelation | OptionProblem {
  const link = fields?.find((f) => f.slug === slug);
  const other = typeof link?.options.target === 'string' ? link.options.target : '';
  const related = other ? typeFields?.(other) : undefined;
  if (link?.type !== 'relation' || !related || !link.spec.references)
    return new OptionProblem('through', `“${slug}” is not a relation of this type to records of another.`);
  if (typeof link.spec.storage === 'object')
    return new OptionProblem('through', `“${link.name}” is kept in a list table: ${reading} through another relation.`);
  return { link, other, related };
}
