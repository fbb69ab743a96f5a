import { HONEYPOT_FIELD, type PublicField, type PublicFormPage, type PublicOption } from '../../common/public-forms';
import { getJson, postJson } from './api';
import { el } from './dom';
import { linkSearch } from './link-search';
import './public-form.css';

/**
 * The public form page (/f/{slug}, docs/public-forms.md): a published form or an authorization card, filled in with
 * no account. Plain DOM, no framework, so a phone on a slow link loads little. Text from the server is only ever set
 * as text, never as HTML.
 */
const page = document.getElementById('page') as HTMLElement;
const slug = decodeURIComponent(location.pathname.replace(/^\/f\//, '').replace(/\/$/, ''));
const base = `/api/public-forms/by-slug/${encodeURIComponent(slug)}`;

/** Replaces the page's content and moves focus to its heading, so a screen reader announces the new step. */
function show(...children: Node[]) {
  page.replaceChildren(...children);
  const heading = page.querySelector('h1, h2') as HTMLElement | null;
  heading?.setAttribute('tabindex', '-1');
  heading?.focus();
}

function problem(message: string) {
  return el('p', { class: 'problem', role: 'alert' }, message);
}

function done(message: string, receiptUrl?: string) {
  const parts: Node[] = [el('h1', {}, 'Thank you'), el('p', { class: 'done' }, message)];
  if (receiptUrl)
    parts.push(
      el(
        'p',
        {},
        el('a', { href: receiptUrl, class: 'button', download: 'card-receipt.pdf' }, 'Download your card (PDF)'),
      ),
    );
  show(...parts);
}

function inputFor(field: PublicField): HTMLElement {
  const id = `field-${field.slug}`;
  const common: Record<string, string | undefined> = {
    id,
    name: field.slug,
    ...(field.required ? { required: '', 'aria-required': 'true' } : {}),
    ...(field.max ? { maxlength: String(field.max) } : {}),
    'aria-describedby': `${id}-error`,
  };
  if (field.input === 'textarea') return el('textarea', { ...common, rows: '4' });
  if (field.input === 'search')
    return linkSearch(field, common, (q) =>
      getJson<{ data: PublicOption[] }>(
        `${base}/fields/${encodeURIComponent(field.slug)}/options?q=${encodeURIComponent(q)}`,
      ),
    );
  if (field.input === 'select') {
    const select = el('select', common, el('option', { value: '' }, 'Choose…'));
    for (const choice of field.choices) select.append(el('option', { value: choice.value }, choice.label));
    return select;
  }
  const autocomplete: Record<string, string> = {
    name: 'name',
    email: 'email',
    phone: 'tel',
    employer: 'organization',
    job: 'organization-title',
  };
  return el('input', {
    ...common,
    type: field.input,
    ...(autocomplete[field.slug] ? { autocomplete: autocomplete[field.slug] } : {}),
    ...(field.input === 'number' ? { inputmode: 'decimal', step: 'any' } : {}),
  });
}

function fieldRow(field: PublicField): HTMLElement {
  const id = `field-${field.slug}`;
  const input = inputFor(field);
  const error = el('p', { id: `${id}-error`, class: 'error' });
  if (field.input === 'checkbox')
    return el('div', { class: 'row check' }, input, el('label', { for: id }, field.name), error);
  return el(
    'div',
    { class: 'row' },
    el('label', { for: id }, field.name, field.required ? el('span', { class: 'required' }, ' (required)') : ''),
    input,
    error,
  );
}

function valuesOf(form: HTMLFormElement, fields: PublicField[]) {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const input = form.elements.namedItem(field.slug) as HTMLInputElement | null;
    if (!input) continue;
    if (field.input === 'checkbox') values[field.slug] = input.checked;
    else if (field.input === 'search') {
      // The id of the name picked; a name typed but not picked is sent as typed, and the server says to pick one.
      const typed = (form.querySelector(`#field-${CSS.escape(field.slug)}`) as HTMLInputElement).value.trim();
      if (input.value !== '') values[field.slug] = Number(input.value);
      else if (typed !== '') values[field.slug] = typed;
    } else if (field.input === 'number') values[field.slug] = input.value === '' ? null : Number(input.value);
    else if (input.value !== '') values[field.slug] = input.value;
  }
  return values;
}

/** Shows the server's field errors beside their fields and focuses the first; other errors above the button. */
function showErrors(
  form: HTMLFormElement,
  status: HTMLElement,
  errors: Record<string, string[]> | undefined,
  message?: string,
) {
  for (const node of form.querySelectorAll('.error')) node.textContent = '';
  for (const node of form.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
  let first: HTMLElement | null = null;
  let placed = 0;
  let unplaced = '';
  for (const [name, messages] of Object.entries(errors ?? {})) {
    const target = form.querySelector(`#field-${CSS.escape(name)}-error`);
    const input = form.querySelector(`#field-${CSS.escape(name)}`) as HTMLElement | null;
    if (target && input) {
      target.textContent = messages.join(' ');
      input.setAttribute('aria-invalid', 'true');
      first ??= input;
      placed += 1;
    } else unplaced += `${messages.join(' ')} `;
  }
  // A message already shown beside its field is not repeated above the button (the server's summary repeats the first).
  const summary =
    placed === 1 ? 'Please correct the field marked above.' : `Please correct the ${placed} fields marked above.`;
  status.replaceChildren(
    problem(unplaced.trim() || (placed ? summary : message) || 'Something went wrong: please try again.'),
  );
  first?.focus();
}

/** Asks for a lost confirmation again; the answer reads the same whether or not the address signed. */
async function resend(status: HTMLElement, body: { email?: string; submission_id?: number }) {
  status.replaceChildren(el('p', {}, 'Sending…'));
  const answer = await postJson<{ message: string }>(`${base}/resend`, body).catch(() => null);
  const message = answer?.body.errors?.email?.[0] ?? answer?.body.message ?? 'No connection: check it and try again.';
  status.replaceChildren(answer?.status === 200 ? el('p', { role: 'status' }, message) : problem(message));
}

/** "Send my link again": the email a card was signed with, its link mailed again. */
function resendForm(email = ''): HTMLFormElement {
  const status = el('div', { class: 'status' });
  const input = el('input', {
    id: 'field-resend-email',
    name: 'email',
    type: 'email',
    autocomplete: 'email',
    required: '',
    value: email,
  });
  const form = el(
    'form',
    { novalidate: '', 'aria-labelledby': 'resend-heading' },
    el('h2', { id: 'resend-heading' }, 'No email from us?'),
    el('p', {}, 'Look in your spam folder, or have the link sent again. Only the newest link works.'),
    el('div', { class: 'row' }, el('label', { for: 'field-resend-email' }, 'Email you signed with'), input),
    status,
    el('button', { type: 'submit', class: 'button secondary' }, 'Send my link again'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void resend(status, { email: input.value });
  });
  return form;
}

/** A card signed with an email: its link is on its way; it can be sent again from here. */
function awaitingLink(message: string, email: string) {
  show(el('h1', {}, 'Check your email'), el('p', { class: 'done' }, message), resendForm(email));
}

function confirmByCode(submissionId: number, message: string) {
  const status = el('div', { class: 'status' });
  const code = el('input', {
    id: 'field-code',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: '6',
    required: '',
    'aria-describedby': 'field-code-error',
  });
  const form = el(
    'form',
    { novalidate: '' },
    el(
      'div',
      { class: 'row' },
      el('label', { for: 'field-code' }, 'Code from the text'),
      code,
      el('p', { id: 'field-code-error', class: 'error' }),
    ),
    status,
    el('button', { type: 'submit', class: 'button' }, 'Confirm my card'),
  );
  const resendStatus = el('div', { class: 'status' });
  const again = el('button', { type: 'button', class: 'button secondary' }, 'Text me a new code');
  again.addEventListener('click', () => void resend(resendStatus, { submission_id: submissionId }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await postJson<{ receipt_url: string }>(`${base}/confirm`, {
      submission_id: submissionId,
      code: code.value.trim(),
    });
    if (answer.status === 200) done(answer.body.message ?? 'Your card is confirmed.', answer.body.receipt_url);
    else showErrors(form, status, answer.body.errors, answer.body.message);
  });
  show(el('h1', {}, 'Confirm your card'), el('p', {}, message), form, resendStatus, again);
}

function render(info: PublicFormPage) {
  document.title = info.title;
  const status = el('div', { class: 'status' });
  const submit = el('button', { type: 'submit', class: 'button' }, info.kind === 'card' ? 'Sign my card' : 'Send');
  const rows = info.fields.map(fieldRow);
  // People never see this field; bots filling in every input do (the server drops what comes with it).
  const honeypot = el(
    'div',
    { class: 'trap', 'aria-hidden': 'true' },
    el('label', { for: HONEYPOT_FIELD }, 'Leave this empty'),
    el('input', { id: HONEYPOT_FIELD, name: HONEYPOT_FIELD, tabindex: '-1', autocomplete: 'off' }),
  );
  const consent: Node[] =
    info.kind === 'card'
      ? [
          el('div', { class: 'consent', id: 'consent-text' }, info.consent_text ?? ''),
          el(
            'div',
            { class: 'row check' },
            el('input', {
              type: 'checkbox',
              id: 'field-consent',
              name: 'consent',
              'aria-describedby': 'consent-text field-consent-error',
            }),
            el('label', { for: 'field-consent' }, 'I have read the text above and I agree to it.'),
            el('p', { id: 'field-consent-error', class: 'error' }),
          ),
        ]
      : [];
  const card = info.kind === 'card';
  const fieldsBefore = card ? rows.filter((_, i) => info.fields[i].slug !== 'signature') : rows;
  const signature = card ? rows.filter((_, i) => info.fields[i].slug === 'signature') : [];
  const form = el('form', { novalidate: '' }, ...fieldsBefore, ...consent, ...signature, honeypot, status, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    status.replaceChildren(el('p', {}, 'Sending…'));
    const trap = (form.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement).value;
    const consentBox = form.elements.namedItem('consent') as HTMLInputElement | null;
    const answer = await postJson<{ confirm_via?: 'email' | 'sms'; submission_id?: number }>(`${base}/submissions`, {
      values: valuesOf(form, info.fields),
      ...(consentBox ? { consent: consentBox.checked } : {}),
      ...(trap ? { [HONEYPOT_FIELD]: trap } : {}),
    }).catch(() => ({
      status: 0,
      body: { message: 'No connection: check it and send again.' } as { message: string; errors?: undefined },
    }));
    submit.disabled = false;
    if (answer.status !== 201) return showErrors(form, status, answer.body.errors, answer.body.message);
    const body = answer.body as { message: string; confirm_via?: string; submission_id?: number };
    if (body.confirm_via === 'sms' && body.submission_id) return confirmByCode(body.submission_id, body.message);
    if (body.confirm_via === 'email')
      return awaitingLink(body.message, (form.elements.namedItem('email') as HTMLInputElement).value);
    done(body.message);
  });
  const header: Node[] = [el('h1', {}, info.title)];
  if (info.campaign_name) header.push(el('p', { class: 'campaign' }, info.campaign_name));
  if (info.intro) header.push(el('p', { class: 'intro' }, info.intro));
  const lost: Node[] = [];
  if (card) {
    const ask = el('button', { type: 'button', class: 'link' }, 'Signed already but lost the confirmation email?');
    ask.addEventListener('click', () => show(el('h1', {}, info.title), resendForm()));
    lost.push(el('p', {}, ask));
  }
  show(...header, form, ...lost);
}

/** The emailed link: confirming takes a press, so a mail scanner opening the link confirms nothing. */
function confirmByLink(token: string) {
  const status = el('div', { class: 'status' });
  const button = el('button', { type: 'button', class: 'button' }, 'Confirm my card');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const answer = await postJson<{ receipt_url: string }>(`${base}/confirm`, { token });
    button.disabled = false;
    if (answer.status === 200) done(answer.body.message ?? 'Your card is confirmed.', answer.body.receipt_url);
    else
      status.replaceChildren(problem(answer.body.errors?.token?.[0] ?? answer.body.message ?? 'Something went wrong.'));
  });
  show(
    el('h1', {}, 'Confirm your card'),
    el('p', {}, 'Press the button to confirm that you signed this card.'),
    status,
    button,
  );
}

async function start() {
  const token = new URLSearchParams(location.search).get('confirm');
  if (token) return confirmByLink(token);
  const answer = await getJson<{ data: PublicFormPage }>(base).catch(() => null);
  if (answer?.status !== 200) {
    show(
      el('h1', {}, 'Form not found'),
      problem(answer?.body.message ?? 'No connection: reload the page to try again.'),
    );
    return;
  }
  render(answer.body.data);
}

void start();
