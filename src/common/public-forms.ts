/** Public forms as the API answers them (src/server/public-forms, docs/public-forms.md), shared with the public page. */

/** One field of a public form as the page draws it. */
export interface PublicField {
  slug: string;
  name: string;
  input: 'text' | 'textarea' | 'email' | 'tel' | 'url' | 'number' | 'date' | 'select' | 'checkbox';
  required: boolean;
  /** Longest text, where the field has a limit. */
  max: number | null;
  choices: Array<{ value: string; label: string }>;
}

/** What anyone may read of a published form: no ids, no actor, nothing about earlier submissions. */
export interface PublicFormPage {
  slug: string;
  title: string;
  intro: string | null;
  kind: 'record' | 'card';
  campaign_name: string | null;
  /** A card's consent: shown above the signature and kept with each card exactly as shown. */
  consent_text: string | null;
  fields: PublicField[];
}

/** The name of the hidden field people never see and bots fill in: a submission with it is dropped. */
export const HONEYPOT_FIELD = 'website';
