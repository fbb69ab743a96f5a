import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type {
  PublicField,
  PublicForm,
  PublicFormOffers,
  PublicFormPage,
  PublicOption,
  Submission,
} from '../../common/public-forms.js';
import { slugify } from '../../common/slugs.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { campaignCardsResource } from '../campaigns/campaign-cards-resource.js';
import { pageMetaOf } from '../http/contracts.js';
import { conflict, fieldError, forbidden, HttpError, notFound, ValidationError } from '../http/errors.js';
import { normaliseEmail, normalisePhone, sendSms } from '../messages/sms-provider.js';
import { recordOptions } from '../options/options-service.js';
import type { FieldSpec } from '../records/resource.js';
import { CARD_FIELDS, isLinkField, publicFieldsOf } from './public-fields.js';

export interface PublicFormInput {
  title: string;
  slug?: string;
  kind: 'record' | 'card';
  record_type?: string;
  fields?: string[];
  offers?: PublicFormOffers;
  intro?: string | null;
  thank_you: string;
  consent_text?: string | null;
  campaign_id?: number | null;
  enabled?: boolean;
}

/** Who sent a submission: their address and browser, kept with it. */
export interface Sender {
  ip: string;
  userAgent: string | null;
}

/** A card's signer as submitted, and what they saw and when: the card's audit trail (kept as signed). */
export interface SignedCard {
  name: string;
  employer: string;
  job: string;
  email: string | null;
  phone: string | null;
  signature: string;
  consent_text: string;
  signed_at: string;
  ip: string;
  user_agent: string | null;
}

const MAX_CODE_ATTEMPTS = 5;
const MAX_TEXT = 2_000;
/** The names a link field's search answers at most, and the fewest letters it searches with. */
const MAX_OFFERED = 10;
const MIN_SEARCH = 2;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A card's confirmation secret: a long link token by email, a 6-digit code by text. */
const newSecret = (via: 'email' | 'sms') =>
  via === 'email' ? randomBytes(24).toString('base64url') : String(randomInt(0, 1_000_000)).padStart(6, '0');
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
const sameText = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Public forms (docs/public-forms.md): an administrator publishes a record type's form (chosen fields, a thank-you
 * text, an optional campaign) or a card form; anyone may fill it in. Every record is written through the data service
 * as the form's actor (the administrator who published it), so the type's rules, validation and revisions apply. A
 * card is kept as signed (who, what consent text, the signature, when, from where) and becomes a campaign card, which
 * counts toward the campaign, only when its signer confirms it by the emailed link or the texted code.
 */
export class PublicFormService {
  constructor(private readonly ctx: AppContext) {}

  private assertManager(user: AuthUser | null): asserts user is AuthUser {
    if (!user?.permissions.includes('schema:update')) throw forbidden('Only administrators may publish forms.');
  }

  private present(row: Record<string, unknown>): PublicForm {
    return {
      ...(row as unknown as PublicForm),
      fields: (row.fields ?? []) as string[],
      offers: (row.offers ?? {}) as PublicFormOffers,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  /** Every form with how many submissions it has had (the administrators' list). */
  async list(user: AuthUser | null): Promise<Array<PublicForm & { submissions: number }>> {
    this.assertManager(user);
    const rows = await this.ctx.db
      .selectFrom('public_forms')
      .selectAll('public_forms')
      .select((eb) =>
        eb
          .selectFrom('public_submissions')
          .select(eb.fn.countAll().as('n'))
          .whereRef('public_submissions.form_id', '=', 'public_forms.id')
          .as('submissions'),
      )
      .orderBy('id')
      .execute();
    return rows.map(({ submissions, ...row }) => ({ ...this.present(row), submissions: Number(submissions ?? 0) }));
  }

  /** The form's fields checked against its record type, its campaign checked to exist. */
  private async checked(user: AuthUser, input: PublicFormInput) {
    const errors: Record<string, string[]> = {};
    const title = input.title.trim();
    if (!title) errors.title = ['Give the form a title.'];
    const slug = slugify(input.slug?.trim() || title).slice(0, 80);
    if (!slug) errors.slug = ['Give the form an address made of letters or digits.'];
    if (!input.thank_you.trim()) errors.thank_you = ['Write what people see once they have sent the form.'];
    const card = input.kind === 'card';
    const recordType = card ? 'campaign-card' : (input.record_type ?? '');
    const def = this.ctx.resources.byType(recordType);
    if (!def) errors.record_type = [`No record type is called "${recordType}".`];
    if (card && !input.campaign_id) errors.campaign_id = ['A card form counts toward a campaign: choose it.'];
    if (card && !input.consent_text?.trim())
      errors.consent_text = ['Write the consent text people agree to when they sign.'];
    if (!card && !input.fields?.length) errors.fields = ['Choose at least one field.'];
    if (input.campaign_id) {
      const campaign = await this.ctx.db
        .selectFrom('campaigns')
        .select('id')
        .where('id', '=', input.campaign_id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!campaign) errors.campaign_id = [`No campaign has the id ${input.campaign_id}.`];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const fields = card ? [] : [...new Set(input.fields)];
    let offers: PublicFormOffers = {};
    if (!card) {
      const typeFields = await this.ctx.records.fields(def!);
      offers = await this.checkedOffers(user, fields, input.offers ?? {}, typeFields);
      publicFieldsOf(fields, typeFields, offers);
    }
    return {
      slug,
      title,
      kind: input.kind,
      record_type: recordType,
      fields: JSON.stringify(fields),
      offers: JSON.stringify(offers),
      intro: input.intro?.trim() || null,
      thank_you: input.thank_you.trim(),
      consent_text: input.consent_text?.trim() || null,
      campaign_id: input.campaign_id ?? null,
      enabled: input.enabled ?? true,
    };
  }

  /** The linked type of a link field, or 422 when it has none a stranger could choose from. */
  private linkedType(slug: string, spec: FieldSpec) {
    const target = spec.references ? this.ctx.records.targetOf(spec.references) : undefined;
    if (!target) throw fieldError('fields', `"${spec.name ?? slug}" cannot be filled in on a public form.`);
    return target;
  }

  /**
   * The offers of the chosen link fields (those of other fields dropped): each view checked to be one of the linked
   * type that the publisher may read, so the form offers nothing its actor could not list.
   */
  private async checkedOffers(
    user: AuthUser,
    chosen: readonly string[],
    offers: PublicFormOffers,
    fields: Record<string, FieldSpec>,
  ): Promise<PublicFormOffers> {
    const kept: PublicFormOffers = {};
    for (const slug of chosen) {
      const spec = fields[slug];
      if (!spec || !isLinkField(spec) || !offers[slug] || !spec.references) continue;
      const viewId = offers[slug].view_id ?? null;
      if (viewId !== null) {
        const linked = this.linkedType(slug, spec);
        try {
          await this.ctx.records.matchingRows(user, linked, { view: viewId });
        } catch (error) {
          if (!(error instanceof HttpError) || ![404, 422].includes(error.statusCode)) throw error;
          const why = error instanceof ValidationError ? Object.values(error.errors).flat()[0] : error.message;
          throw fieldError(`offers.${slug}`, why ?? `No view of ${linked.name} has the id ${viewId}.`);
        }
      }
      kept[slug] = { view_id: viewId };
    }
    return kept;
  }

  private async slugFree(slug: string, id?: number) {
    let query = this.ctx.db.selectFrom('public_forms').select('id').where('slug', '=', slug);
    if (id) query = query.where('id', '!=', id);
    if (await query.executeTakeFirst()) throw fieldError('slug', `Another form is published at /f/${slug}.`);
  }

  async create(user: AuthUser | null, input: PublicFormInput): Promise<PublicForm> {
    this.assertManager(user);
    const values = await this.checked(user, input);
    await this.slugFree(values.slug);
    const row = await this.ctx.db
      .insertInto('public_forms')
      .values({ ...values, actor_id: user.id })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.present(row);
  }

  async update(user: AuthUser | null, id: number, input: PublicFormInput): Promise<PublicForm> {
    this.assertManager(user);
    const values = await this.checked(user, input);
    await this.slugFree(values.slug, id);
    const row = await this.ctx.db
      .updateTable('public_forms')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(`No public form has the id ${id}.`);
    return this.present(row);
  }

  async remove(user: AuthUser | null, id: number) {
    this.assertManager(user);
    // A submission is a signed card's audit trail: the database refuses to delete a form that has one (its key is
    // `on delete restrict`), so a submission sent while the form is being deleted is never lost with it.
    const row = await this.ctx.db
      .deleteFrom('public_forms')
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst()
      .catch(async (error: unknown) => {
        // The key's refusal: restrict_violation (23001) or foreign_key_violation (23503), as the engine reports it.
        if (!['23001', '23503'].includes(String((error as { code?: unknown }).code))) throw error;
        const sent = await this.ctx.db
          .selectFrom('public_submissions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('form_id', '=', id)
          .executeTakeFirstOrThrow();
        const n = Number(sent.n);
        throw conflict(
          `This form has ${n.toLocaleString('en-US')} submission${n === 1 ? '' : 's'}, kept as their record: close it instead of deleting it.`,
        );
      });
    if (!row) throw notFound(`No public form has the id ${id}.`);
  }

  private async published(slug: string): Promise<PublicForm> {
    const row = await this.ctx.db
      .selectFrom('public_forms')
      .selectAll()
      .where('slug', '=', slug)
      .where('enabled', '=', true)
      .executeTakeFirst();
    if (!row) throw notFound('This form is not open: check the address, or ask whoever gave it to you.');
    return this.present(row);
  }

  /** The published form as the public page draws it. */
  async page(slug: string): Promise<PublicFormPage> {
    const form = await this.published(slug);
    const campaign = form.campaign_id
      ? await this.ctx.db.selectFrom('campaigns').select('name').where('id', '=', form.campaign_id).executeTakeFirst()
      : undefined;
    return {
      slug: form.slug,
      title: form.title,
      intro: form.intro,
      kind: form.kind,
      campaign_name: campaign?.name ?? null,
      consent_text: form.consent_text,
      fields: await this.fieldsOf(form),
    };
  }

  private async fieldsOf(form: PublicForm): Promise<PublicField[]> {
    if (form.kind === 'card') return CARD_FIELDS;
    const def = this.ctx.resources.byType(form.record_type);
    if (!def) throw notFound('This form is not open any more.');
    return publicFieldsOf(form.fields, await this.ctx.records.fields(def), form.offers);
  }

  /**
   * The records a form's link field offers, as its actor reads them (the access policy, and the saved view the form
   * names), by name: those whose name holds `q`, or those of `ids`. Only ids and names.
   */
  private async offered(
    form: PublicForm,
    actor: AuthUser,
    slug: string,
    { q = '', ids = [], limit = MAX_OFFERED }: { q?: string; ids?: number[]; limit?: number },
  ): Promise<PublicOption[]> {
    const def = this.ctx.resources.byType(form.record_type);
    const spec = def ? (await this.ctx.records.fields(def))[slug] : undefined;
    const offer = form.offers[slug];
    if (!spec || !offer || !isLinkField(spec) || !form.fields.includes(slug))
      throw notFound('This form has no such field.');
    const rows = await recordOptions(this.ctx, actor, this.linkedType(slug, spec), {
      q,
      ids,
      view: offer.view_id,
      limit,
    });
    return rows.map((row) => ({ id: Number(row.id), name: String(row.name) }));
  }

  /**
   * The names a link field offers that hold what a person typed (at least two letters), at most ten, by name: the
   * search box of a public form. Limited per address (PUBLIC_FORM_SEARCHES_PER_HOUR).
   */
  async search(slug: string, field: string, q: string, sender: Sender): Promise<PublicOption[]> {
    const form = await this.published(slug);
    if (form.kind === 'card' || !form.offers[field]) throw notFound('This form has no such field.');
    const typed = q.trim();
    if (typed.length < MIN_SEARCH) return [];
    await this.ctx.throttle.take(
      `public-form-search|${sender.ip}`,
      this.ctx.config.publicForms.searchesPerHour,
      3_600,
      'Too many searches were sent from your address.',
    );
    return this.offered(form, await this.actorOf(form), field, { q: typed });
  }

  /** 422 on a link field whose value is not one of the records the form offers (an id guessed or forged). */
  private async assertOffered(
    form: PublicForm,
    actor: AuthUser,
    fields: PublicField[],
    chosen: Record<string, unknown>,
  ) {
    for (const field of fields) {
      const value = chosen[field.slug];
      if (field.input !== 'search' || value === undefined || value === null || value === '') continue;
      const id = typeof value === 'number' ? value : Number.NaN;
      const offered =
        Number.isInteger(id) && id > 0 && id <= 2_147_483_647
          ? await this.offered(form, actor, field.slug, { ids: [id], limit: 1 })
          : [];
      if (!offered.length)
        throw fieldError(field.slug, `Choose one of the names offered: type part of it, then pick it from the list.`);
    }
  }

  private async actorOf(form: PublicForm): Promise<AuthUser> {
    const actor = await loadAuthUser(this.ctx.db, form.actor_id);
    if (!actor) throw new HttpError(503, 'This form is closed for now: please try again later.');
    return actor;
  }

  /** One more submission or confirmation from this address this hour, else 429. */
  private async throttle(sender: Sender) {
    await this.ctx.throttle.take(
      `public-form|${sender.ip}`,
      this.ctx.config.publicForms.perAddressPerHour,
      3_600,
      'Too many forms were sent from your address.',
    );
  }

  /** 409 when this form already has a submission with the email or phone given. */
  private async assertNew(form: PublicForm, email: string | null, phone: string | null) {
    for (const [column, value, what] of [
      ['email', email, 'email address'],
      ['phone', phone, 'phone number'],
    ] as const) {
      if (!value) continue;
      const earlier = await this.ctx.db
        .selectFrom('public_submissions')
        .select('id')
        .where('form_id', '=', form.id)
        .where(column, '=', value)
        .executeTakeFirst();
      if (earlier)
        throw conflict(
          form.kind === 'card'
            ? `A card was already signed with this ${what}. If it was you, look for the confirmation we sent.`
            : `This form was already sent with this ${what}.`,
        );
    }
  }

  /**
   * A record form sent: the chosen fields only, written as the form's actor with the type's rules; the submission
   * is kept beside the record. Answers the thank-you text.
   */
  async submit(
    slug: string,
    values: Record<string, unknown>,
    sender: Sender,
  ): Promise<{ message: string; confirm_via?: 'email' | 'sms'; submission_id?: number }> {
    const form = await this.published(slug);
    await this.throttle(sender);
    if (form.kind === 'card') return this.sign(form, values, sender);
    const fields = await this.fieldsOf(form);
    const chosen = Object.fromEntries(fields.filter((f) => f.slug in values).map((f) => [f.slug, values[f.slug]]));
    const tooLong = fields.find(
      (f) => typeof chosen[f.slug] === 'string' && (chosen[f.slug] as string).length > MAX_TEXT,
    );
    if (tooLong) throw fieldError(tooLong.slug, `${tooLong.name} is too long: at most ${MAX_TEXT} characters.`);
    const email = fields.find((f) => f.input === 'email' && typeof chosen[f.slug] === 'string' && chosen[f.slug]);
    const phone = fields.find((f) => f.input === 'tel' && typeof chosen[f.slug] === 'string' && chosen[f.slug]);
    const emailKey = email ? normaliseEmail(String(chosen[email.slug])) : null;
    const phoneKey = phone ? normalisePhone(String(chosen[phone.slug])) || null : null;
    await this.assertNew(form, emailKey, phoneKey);
    const def = this.ctx.resources.byType(form.record_type)!;
    const typeFields = await this.ctx.records.fields(def);
    if (form.campaign_id && typeFields.campaign_id) chosen.campaign_id = form.campaign_id;
    const actor = await this.actorOf(form);
    await this.assertOffered(form, actor, fields, chosen);
    await this.ctx.records.inOneTransaction(async (unit) => {
      const { record } = await this.ctx.records.create(actor, def, chosen, { unit });
      await unit.trx
        .insertInto('public_submissions')
        .values({
          form_id: form.id,
          record_type: form.record_type,
          record_id: Number(record.id),
          email: emailKey,
          phone: phoneKey,
          submitted: JSON.stringify(chosen),
          ip: sender.ip,
          user_agent: sender.userAgent,
        })
        .execute();
    });
    return { message: form.thank_you };
  }

  /** A card signed: kept as signed, unconfirmed (not counted) until its signer follows the link or gives the code. */
  private async sign(form: PublicForm, values: Record<string, unknown>, sender: Sender) {
    const text = (slug: string) => (typeof values[slug] === 'string' ? (values[slug] as string).trim() : '');
    const errors: Record<string, string[]> = {};
    for (const field of CARD_FIELDS) {
      const value = text(field.slug);
      if (field.required && !value) errors[field.slug] = [`${field.name} is required.`];
      else if (field.max && value.length > field.max)
        errors[field.slug] = [`${field.name} is too long: at most ${field.max} characters.`];
    }
    const email = text('email') ? normaliseEmail(text('email')) : null;
    const phone = text('phone') ? normalisePhone(text('phone')) || null : null;
    if (email && !EMAIL.test(email)) errors.email = ['This email address does not look right.'];
    if (text('phone') && (!phone || phone.length < 8)) errors.phone = ['This phone number does not look right.'];
    if (!email && !phone) errors.email = ['Give your email or mobile phone: we send you a confirmation there.'];
    if (!email && phone && !this.ctx.config.messages.sms)
      errors.email = ['Give your email address: we cannot send texts from here yet.'];
    if (text('signature') && text('name') && !sameText(text('signature'), text('name')))
      errors.signature = ['Type your full name exactly as above to sign.'];
    if (values.consent !== true) errors.consent = ['Tick the box to agree to the text above.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    await this.assertNew(form, email, phone);
    const via = email ? 'email' : 'sms';
    const secret = newSecret(via);
    const card: SignedCard = {
      name: text('name'),
      employer: text('employer'),
      job: text('job'),
      email,
      phone,
      signature: text('signature'),
      consent_text: form.consent_text ?? '',
      signed_at: new Date().toISOString(),
      ip: sender.ip,
      user_agent: sender.userAgent,
    };
    const row = await this.ctx.db
      .insertInto('public_submissions')
      .values({
        form_id: form.id,
        record_type: form.record_type,
        email,
        phone,
        submitted: JSON.stringify(card),
        ip: sender.ip,
        user_agent: sender.userAgent,
        confirm_via: via,
        confirm_hash: hash(secret),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.sendConfirmation(form, Number(row.id), card, via, secret);
    return {
      message:
        via === 'email'
          ? `Almost done: we sent a link to ${email}. Your card counts once you open it and confirm.`
          : `Almost done: we texted a code to ${phone}. Enter it to confirm your card.`,
      confirm_via: via,
      submission_id: Number(row.id),
    } as const;
  }

  /** Mails the card's confirmation link, or texts its code. */
  private async sendConfirmation(form: PublicForm, id: number, card: SignedCard, via: 'email' | 'sms', secret: string) {
    if (via === 'email') {
      const link = `${this.ctx.config.appUrl}/f/${form.slug}?confirm=${id}.${secret}`;
      await this.ctx.sendMail({
        to: card.email!,
        subject: `Confirm your union card: ${form.title}`,
        text: `${card.name}, you signed a union authorization card on ${card.signed_at.slice(0, 10)}.\n\nTo confirm it was you, open this link and press "Confirm my card":\n${link}\n\nIf you did not sign it, ignore this email: an unconfirmed card does not count.`,
      });
    } else {
      await sendSms(this.ctx.config.messages.sms!, card.phone!, `Your code to confirm your union card: ${secret}`);
    }
  }

  /**
   * A lost confirmation sent again, with a new secret (the old link or code stops working): to the email a card was
   * signed with, or by text to the card whose code page is open (`submission_id`). The answer is the same whether or
   * not such an unconfirmed card exists, and the sending is not awaited by the caller, so neither the words nor the
   * time tell a stranger whether an address signed. Limited per address (the form's limit) and per card (3 an hour).
   */
  async resend(
    slug: string,
    ask: { email?: string; submission_id?: number },
    sender: Sender,
  ): Promise<{ message: string; sending: Promise<void> }> {
    const form = await this.published(slug);
    const email = ask.email?.trim() ? normaliseEmail(ask.email) : null;
    if (email === null && !ask.submission_id) throw fieldError('email', 'Give the email address you signed with.');
    if (email !== null && !EMAIL.test(email)) throw fieldError('email', 'This email address does not look right.');
    await this.throttle(sender);
    await this.ctx.throttle.take(
      `public-form-resend|${form.id}|${email ?? `#${ask.submission_id}`}`,
      3,
      3_600,
      'We already sent this confirmation again several times.',
    );
    const message =
      email !== null
        ? `If a card was signed on this form with ${email} and is not confirmed yet, we sent its link there again. Only the newest link works.`
        : 'If this card is not confirmed yet, we texted it a new code. Only the newest code works.';
    const row =
      form.kind === 'card'
        ? await this.ctx.db
            .selectFrom('public_submissions')
            .select(['id', 'submitted', 'confirm_via'])
            .where('form_id', '=', form.id)
            .where('confirmed_at', 'is', null)
            .where((eb) =>
              email !== null
                ? eb.and([eb('email', '=', email), eb('confirm_via', '=', 'email')])
                : eb.and([eb('id', '=', ask.submission_id!), eb('confirm_via', '=', 'sms')]),
            )
            .orderBy('id', 'desc')
            .executeTakeFirst()
        : undefined;
    if (!row?.confirm_via) return { message, sending: Promise.resolve() };
    const via = row.confirm_via as 'email' | 'sms';
    const secret = newSecret(via);
    await this.ctx.db
      .updateTable('public_submissions')
      .set({ confirm_hash: hash(secret), confirm_attempts: 0 })
      .where('id', '=', row.id)
      .execute();
    return {
      message,
      sending: this.sendConfirmation(form, Number(row.id), row.submitted as unknown as SignedCard, via, secret),
    };
  }

  /**
   * A card confirmed, by the emailed link's token (`{id}.{secret}`) or the texted code with the submission's id. The
   * first confirmation makes the campaign card (as the form's actor, with its revision) in the transaction that marks
   * the submission confirmed, so a card counts once however often it is confirmed. Answers the thank-you text and
   * the receipt's address.
   */
  async confirm(slug: string, proof: { token?: string; submission_id?: number; code?: string }, sender: Sender) {
    const form = await this.published(slug);
    await this.throttle(sender);
    const [idText, secret] = proof.token ? proof.token.split('.') : [String(proof.submission_id ?? ''), proof.code];
    const id = Number(idText);
    const invalid = () =>
      fieldError(
        proof.token ? 'token' : 'code',
        proof.token ? 'This confirmation link is not valid: copy it whole from the email.' : 'This code is not right.',
      );
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647 || !secret) throw invalid();
    const row = await this.ctx.db
      .selectFrom('public_submissions')
      .selectAll()
      .where('id', '=', id)
      .where('form_id', '=', form.id)
      .executeTakeFirst();
    if (!row?.confirm_hash) throw invalid();
    if (row.confirm_attempts >= MAX_CODE_ATTEMPTS)
      throw new HttpError(429, 'Too many wrong codes for this card: sign it again to get a new one.');
    const expected = Buffer.from(row.confirm_hash);
    const given = Buffer.from(hash(secret));
    if (!timingSafeEqual(expected, given)) {
      await this.ctx.db
        .updateTable('public_submissions')
        .set((eb) => ({ confirm_attempts: eb('confirm_attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
      throw invalid();
    }
    if (!row.confirmed_at) await this.makeCard(form, id);
    return { message: form.thank_you, receipt_url: `/api/public-forms/receipts/${this.receiptToken(id)}` };
  }

  private async makeCard(form: PublicForm, id: number) {
    const actor = await this.actorOf(form);
    await this.ctx.records.inOneTransaction(async (unit) => {
      const marked = await unit.trx
        .updateTable('public_submissions')
        .set({ confirmed_at: new Date() })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .returning(['submitted', 'confirm_via'])
        .executeTakeFirst();
      if (!marked) return;
      const card = marked.submitted as unknown as SignedCard;
      const { record } = await this.ctx.records.create(
        actor,
        campaignCardsResource,
        {
          campaign_id: form.campaign_id,
          worker_name: card.name,
          signed_on: card.signed_at.slice(0, 10),
          notes: `E-signed on the public form "${form.title}" (submission ${id}), confirmed by ${marked.confirm_via === 'email' ? 'email' : 'text'}. Employer: ${card.employer}. Job: ${card.job}.${card.email ? ` Email: ${card.email}.` : ''}${card.phone ? ` Phone: ${card.phone}.` : ''}`,
        },
        { unit },
      );
      await unit.trx
        .updateTable('public_submissions')
        .set({ record_id: Number(record.id) })
        .where('id', '=', id)
        .execute();
    });
  }

  /** The receipt's address token: the submission's id signed with APP_KEY, so only its signer's page has it. */
  receiptToken(id: number): string {
    return `${id}.${createHmac('sha256', this.ctx.config.appKey ?? '')
      .update(`receipt:${id}`)
      .digest('base64url')}`;
  }

  submissionOfToken(token: string): number | null {
    const [idText] = token.split('.');
    const id = Number(idText);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return null;
    const expected = Buffer.from(this.receiptToken(id));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
  }

  /** A confirmed card's submission with its form's title and campaign, for its receipt. */
  async confirmedCard(id: number) {
    const row = await this.ctx.db
      .selectFrom('public_submissions as s')
      .innerJoin('public_forms as f', 'f.id', 's.form_id')
      .leftJoin('campaigns as c', 'c.id', 'f.campaign_id')
      .select([
        's.id',
        's.submitted',
        's.confirm_via',
        's.confirmed_at',
        's.record_id',
        'f.title',
        'c.name as campaign_name',
      ])
      .where('s.id', '=', id)
      .where('f.kind', '=', 'card')
      .where('s.confirmed_at', 'is not', null)
      .executeTakeFirst();
    if (!row) throw notFound('No confirmed card has this receipt.');
    return {
      id: Number(row.id),
      card: row.submitted as unknown as SignedCard,
      confirm_via: row.confirm_via,
      confirmed_at: iso(row.confirmed_at),
      card_id: row.record_id,
      form_title: row.title,
      campaign_name: row.campaign_name,
    };
  }

  /** A card's receipt for staff: those who may read cards. */
  async cardForStaff(user: AuthUser | null, id: number) {
    if (!user?.permissions.includes('campaign-card:read')) throw forbidden('You may not read cards.');
    return this.confirmedCard(id);
  }

  /** A page of a form's submissions, newest first, with how many it has in all. */
  async submissions(user: AuthUser | null, formId: number, page: number, perPage: number) {
    this.assertManager(user);
    const [rows, count] = await Promise.all([
      this.ctx.db
        .selectFrom('public_submissions')
        .select([
          'id',
          'form_id',
          'record_type',
          'record_id',
          'submitted',
          'ip',
          'user_agent',
          'confirm_via',
          'confirmed_at',
          'created_at',
        ])
        .where('form_id', '=', formId)
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.ctx.db
        .selectFrom('public_submissions')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('confirmed_at').as('confirmed')])
        .where('form_id', '=', formId)
        .executeTakeFirstOrThrow(),
    ]);
    const data: Submission[] = rows.map((row) => ({
      ...(row as unknown as Submission),
      id: Number(row.id),
      submitted: row.submitted as Record<string, unknown>,
      confirmed_at: row.confirmed_at ? iso(row.confirmed_at) : null,
      created_at: iso(row.created_at),
    }));
    return {
      data,
      meta: { ...pageMetaOf(page, perPage, Number(count.n), data.length), confirmed: Number(count.confirmed) },
    };
  }
}
