import type { FieldSpec } from '../../common/field-types/define.js';
import { notOnPublicForms, type PublicField, type PublicFormOffers } from '../../common/public-forms.js';
import { fieldError } from '../http/errors.js';

/** The value kinds a public page can ask for, and the input each becomes. */
const INPUT_OF: Partial<Record<FieldSpec['kind'], PublicField['input']>> = {
  text: 'text',
  email: 'email',
  phone: 'tel',
  url: 'url',
  integer: 'number',
  number: 'number',
  date: 'date',
  enum: 'select',
  boolean: 'checkbox',
};

/** Whether a field is a link to one record, which a public form offers by name (and what else it may not be). */
export function isLinkField(spec: FieldSpec): boolean {
  return spec.type === 'relation';
}

/** Why this link field cannot be on a public form, or null: one record of a type with names, not a staff account. */
function linkProblem(spec: FieldSpec): string | null {
  if (spec.kind === 'text') return 'a link to a list of values rather than records';
  if (spec.kind !== 'integer' || !spec.references) return 'a link to several records: a public form offers one';
  if (spec.references.table === 'users') return 'a link to staff accounts';
  return null;
}

/**
 * What the public page shows of the fields an administrator chose from the record type (its field specs: kinds,
 * limits, choices), refusing those a stranger cannot fill in (files, computed fields, links to several records) and
 * links whose offered records (`offers`) are not named.
 */
export function publicFieldsOf(
  chosen: readonly string[],
  fields: Record<string, FieldSpec>,
  offers: PublicFormOffers,
): PublicField[] {
  return chosen.map((slug) => {
    const spec = fields[slug];
    if (!spec) throw fieldError('fields', `The record type has no field "${slug}".`);
    const name = spec.name ?? spec.label ?? slug;
    const why = notOnPublicForms(spec.type) ?? (isLinkField(spec) ? linkProblem(spec) : null);
    if (why) throw fieldError('fields', `"${name}" cannot be on a public form: it is ${why}.`);
    if (isLinkField(spec) && !offers[slug])
      throw fieldError('fields', `"${name}" links to other records: choose which of them the form offers.`);
    const input = spec.type === 'textarea' ? 'textarea' : isLinkField(spec) ? 'search' : INPUT_OF[spec.kind];
    if (!input || spec.readOnly || spec.computed || spec.computedOver || (spec.references && !isLinkField(spec)))
      throw fieldError('fields', `"${name}" cannot be filled in on a public form.`);
    return {
      slug,
      name,
      input,
      required: Boolean(spec.required),
      max: typeof spec.max === 'number' && spec.kind !== 'integer' && spec.kind !== 'number' ? spec.max : null,
      choices: (spec.options ?? []).map((value) => ({ value, label: spec.choiceLabels?.[value] ?? value })),
    };
  });
}

/** A card form's fields: the same for every card (the signer, their work, how to reach them, the signature). */
export const CARD_FIELDS: PublicField[] = [
  { slug: 'name', name: 'Full name', input: 'text', required: true, max: 200, choices: [] },
  { slug: 'employer', name: 'Employer', input: 'text', required: true, max: 200, choices: [] },
  { slug: 'job', name: 'Job title or trade', input: 'text', required: true, max: 200, choices: [] },
  { slug: 'email', name: 'Email', input: 'email', required: false, max: 254, choices: [] },
  { slug: 'phone', name: 'Mobile phone', input: 'tel', required: false, max: 40, choices: [] },
  {
    slug: 'signature',
    name: 'Signature: type your full name',
    input: 'text',
    required: true,
    max: 200,
    choices: [],
  },
];
