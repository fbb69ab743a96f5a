/** Public forms as the API answers them (src/server/public-forms, docs/public-forms.md), shared with the public page. */

/** One field of a public form as the page draws it. */
export interface PublicField {
  slug: string;
  name: string;
  /** `search`: a link to another record, chosen by name among those the form offers (its search address). */
  input: 'text' | 'textarea' | 'email' | 'tel' | 'url' | 'number' | 'date' | 'select' | 'checkbox' | 'search';
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

/** A published form as its administrators read it (GET /api/public-forms adds `submissions`, how many it has had). */
export interface PublicForm {
  id: number;
  slug: string;
  title: string;
  kind: 'record' | 'card';
  record_type: string;
  fields: string[];
  /** Each link field's records offered: those of a saved view of the linked type, or (`view_id: null`) all of them. */
  offers: PublicFormOffers;
  intro: string | null;
  thank_you: string;
  consent_text: string | null;
  campaign_id: number | null;
  actor_id: number;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** Which records a public form's link fields offer, by field slug (docs/public-forms.md "Links to other records"). */
export type PublicFormOffers = Record<string, { view_id: number | null }>;

/** A record a link field offers: its id (what is sent back) and its name, nothing else. */
export interface PublicOption {
  id: number;
  name: string;
}

/** One submission of a form: what was sent, from where, and for a card whether its signer confirmed it. */
export interface Submission {
  id: number;
  form_id: number;
  record_type: string;
  record_id: number | null;
  submitted: Record<string, unknown>;
  ip: string;
  user_agent: string | null;
  confirm_via: 'email' | 'sms' | null;
  confirmed_at: string | null;
  created_at: string;
}

/**
 * Why a field of this schema type cannot be on a public form, or null when it can (as far as its type and options go).
 * Files: anyone could store files on the server without an account, and staff would open them. Links to several
 * records, to staff accounts, and computed links: the page would have no one name to offer. A link to one record is
 * allowed, offering only the records its form names (a saved view or all of the type). See docs/public-forms.md.
 */
export function notOnPublicForms(type: string | undefined, options?: Record<string, unknown> | null): string | null {
  if (type === 'attachment') return 'a file: public forms take no uploads';
  if (type === 'relation' && (options?.multiple || options?.with_trade))
    return 'a link to several records: a public form offers one';
  if (type === 'relation' && options?.target === 'user') return 'a link to staff accounts';
  if (type === 'through-relation' || type === 'person' || type === 'lookup' || type === 'rollup')
    return 'a link to other records that a stranger cannot choose';
  return null;
}
