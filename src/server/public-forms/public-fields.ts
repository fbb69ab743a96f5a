import type { FieldSpec } from '../../common/field-types/define.js';
import { notOnPublicForms, type PublicField } from '../../common/public-forms.js';
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

/**
 * What the public page shows of the fields an administrator chose from the record type (its field specs: kinds,
 * limits, choices), refusing those a stranger cannot fill in (relations, files, computed fields).
 */
export function publicFieldsOf(chosen: readonly string[], fields: Record<string, FieldSpec>): PublicField[] {
  return chosen.map((slug) => {
    const spec = fields[slug];
    if (!spec) throw fieldError('fields', `The record type has no field "${slug}".`);
    const input = spec.type === 'textarea' ? 'textarea' : INPUT_OF[spec.kind];
    const why = notOnPublicForms(spec.type);
    if (why) throw fieldError('fields', `"${spec.name ?? slug}" cannot be on a public form: it is ${why}.`);
    if (!input || spec.readOnly || spec.references || spec.computed || spec.computedOver)
      throw fieldError('fields', `"${spec.name ?? slug}" cannot be filled in on a public form.`);
    return {
      slug,
      name: spec.name ?? spec.label ?? slug,
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
