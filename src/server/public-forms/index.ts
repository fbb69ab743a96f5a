import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HONEYPOT_FIELD,
  type PublicField,
  type PublicForm,
  type PublicFormPage,
  type Submission,
} from '../../common/public-forms.js';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { answer, idParams, messageAnswer, noBody, noQuery, pageMeta, pageQuery, pdfFile } from '../http/contracts.js';
import { notFound } from '../http/errors.js';
import { cardReceipt } from './card-receipt.js';
import { PublicFormService } from './public-form-service.js';

/** A submission's body: a few kilobytes at most, so a flood of large posts costs little (413 past it). */
const SUBMISSION_BYTES = 32 * 1024;

const offers = z.record(z.string().max(60), z.object({ view_id: z.number().int().positive().nullable() }));

const publicForm = z
  .object({
    id: z.number(),
    slug: z.string(),
    title: z.string(),
    kind: z.enum(['record', 'card']),
    record_type: z.string(),
    fields: z.array(z.string()),
    offers: offers.describe('Each link field’s records offered: a saved view of the linked type, or null for all.'),
    intro: z.string().nullable(),
    thank_you: z.string(),
    consent_text: z.string().nullable(),
    campaign_id: z.number().nullable(),
    actor_id: z.number().describe('The person whose permissions and name its writes carry: who published it.'),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PublicForm' }) satisfies z.ZodType<PublicForm>;

const publicField = z.object({
  slug: z.string(),
  name: z.string(),
  input: z
    .enum(['text', 'textarea', 'email', 'tel', 'url', 'number', 'date', 'select', 'checkbox', 'search'])
    .describe('`search`: a link to another record, chosen among the names `…/fields/{slug}/options?q=` offers.'),
  required: z.boolean(),
  max: z.number().nullable(),
  choices: z.array(z.object({ value: z.string(), label: z.string() })),
}) satisfies z.ZodType<PublicField>;

const publicFormPage = z
  .object({
    slug: z.string(),
    title: z.string(),
    intro: z.string().nullable(),
    kind: z.enum(['record', 'card']),
    campaign_name: z.string().nullable(),
    consent_text: z.string().nullable(),
    fields: z.array(publicField),
  })
  .meta({ id: 'PublicFormPage' }) satisfies z.ZodType<PublicFormPage>;

const formInput = z.object({
  title: z.string().max(200),
  slug: z.string().max(80).optional(),
  kind: z.enum(['record', 'card']),
  record_type: z.string().max(60).optional().describe('The record type written; a card form writes campaign cards.'),
  fields: z.array(z.string().max(60)).max(50).optional().describe("The type's fields shown, in order."),
  offers: offers.optional().describe('Required for each link field shown: which records it offers.'),
  intro: z.string().max(5_000).nullable().optional(),
  thank_you: z.string().max(2_000),
  consent_text: z.string().max(10_000).nullable().optional().describe("A card form's consent, kept with each card."),
  campaign_id: z.number().int().nullable().optional(),
  enabled: z.boolean().optional(),
});

const submission = z
  .object({
    id: z.number(),
    form_id: z.number(),
    record_type: z.string(),
    record_id: z.number().nullable(),
    submitted: z.record(z.string(), z.unknown()),
    ip: z.string(),
    user_agent: z.string().nullable(),
    confirm_via: z.enum(['email', 'sms']).nullable(),
    confirmed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'PublicSubmission' }) satisfies z.ZodType<Submission>;

const slugParams = z.object({ slug: z.string().max(80) });
const fieldParams = slugParams.extend({ field: z.string().max(60) });
const searchQuery = z.object({ q: z.string().max(100).default('').describe('What was typed: two letters or more.') });
const publicOption = z.object({ id: z.number(), name: z.string() }).meta({ id: 'PublicOption' });

const submissionInput = z.object({
  values: z.record(z.string().max(60), z.unknown()).describe('The form’s fields by slug.'),
  consent: z.boolean().optional().describe('A card: the signer agreed to the consent text shown.'),
  [HONEYPOT_FIELD]: z.string().max(2_000).optional().describe('Left empty by people: a submission with it is dropped.'),
});

const sent = z.object({
  message: z.string(),
  confirm_via: z.enum(['email', 'sms']).optional(),
  submission_id: z.number().optional().describe('A card: give it back with the texted code.'),
});

const confirmInput = z.object({
  token: z.string().max(200).optional().describe('From the emailed link.'),
  submission_id: z.number().int().optional(),
  code: z.string().max(12).optional().describe('The texted code.'),
});

const resendInput = z.object({
  email: z.string().max(254).optional().describe('The email a card was signed with: its link is sent again.'),
  submission_id: z.number().int().optional().describe('A card confirmed by text: a new code is texted.'),
});

const senderOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 500) || null,
});

/**
 * Public forms and e-signed cards (docs/public-forms.md): administrators publish forms; anyone fills them in at
 * /f/{slug} (the public page, its own small client entry); a card is confirmed by its signer and has a PDF receipt.
 * The public routes need no session but take the CSRF pair like the sign-in page, are rate-limited per address and
 * take small bodies only.
 */
const publicForms: FeaturePlugin = async (fastify, { ctx }) => {
  const service = new PublicFormService(ctx);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const manage = { permission: 'schema:update' } as const;

  app.get(
    '/api/public-forms',
    {
      schema: {
        querystring: noQuery,
        response: { 200: z.object({ data: z.array(publicForm.extend({ submissions: z.number() })) }) },
      },
      config: manage,
    },
    async (request) => ({ data: await service.list(request.user) }),
  );
  app.post(
    '/api/public-forms',
    { schema: { body: formInput, response: { 201: answer(publicForm) } }, config: manage },
    async (request, reply) => {
      const form = await service.create(request.user, request.body);
      return reply.status(201).send({ data: form, message: `The form is open at /f/${form.slug}.` });
    },
  );
  app.put(
    '/api/public-forms/:id',
    { schema: { params: idParams, body: formInput, response: { 200: answer(publicForm) } }, config: manage },
    async (request) => ({ data: await service.update(request.user, request.params.id, request.body) }),
  );
  app.delete(
    '/api/public-forms/:id',
    { schema: { params: idParams, body: noBody, response: { 204: z.null(), 409: messageAnswer } }, config: manage },
    async (request, reply) => {
      await service.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/public-forms/:id/submissions',
    {
      schema: {
        params: idParams,
        querystring: pageQuery,
        response: {
          200: z.object({
            data: z.array(submission),
            meta: pageMeta.extend({ confirmed: z.number().int().describe('How many of all its cards are confirmed.') }),
          }),
        },
      },
      config: manage,
    },
    async (request) => service.submissions(request.user, request.params.id, request.query.page, request.query.per_page),
  );
  app.get(
    '/api/public-submissions/:id/receipt',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: pdfFile } },
      config: { permission: 'campaign-card:read' },
    },
    async (request, reply) => {
      const pdf = await cardReceipt(await service.cardForStaff(request.user, request.params.id));
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="card-${request.params.id}.pdf"`)
        .send(Buffer.from(pdf));
    },
  );

  // Public: no session; unsafe requests carry the CSRF cookie and header pair, as the sign-in page's do.
  const open = { permission: 'public' } as const;
  app.get(
    '/api/public-forms/by-slug/:slug',
    { schema: { params: slugParams, querystring: noQuery, response: { 200: answer(publicFormPage) } }, config: open },
    async (request) => ({ data: await service.page(request.params.slug) }),
  );
  app.get(
    '/api/public-forms/by-slug/:slug/fields/:field/options',
    {
      schema: {
        params: fieldParams,
        querystring: searchQuery,
        response: { 200: z.object({ data: z.array(publicOption) }) },
      },
      config: open,
    },
    async (request) => ({
      data: await service.search(request.params.slug, request.params.field, request.query.q, senderOf(request)),
    }),
  );
  app.post(
    '/api/public-forms/by-slug/:slug/submissions',
    {
      bodyLimit: SUBMISSION_BYTES,
      schema: {
        params: slugParams,
        body: submissionInput,
        response: { 201: sent, 409: messageAnswer, 503: messageAnswer },
      },
      config: open,
    },
    async (request, reply) => {
      // A bot filled in the hidden field: it is told what a person is, and nothing is kept.
      if (request.body[HONEYPOT_FIELD]) {
        const page = await service.page(request.params.slug);
        return reply
          .status(201)
          .send({ message: page.kind === 'card' ? 'Almost done: check your email.' : 'Thank you.' });
      }
      const answer = await service.submit(
        request.params.slug,
        { ...request.body.values, consent: request.body.consent },
        senderOf(request),
      );
      return reply.status(201).send(answer);
    },
  );
  app.post(
    '/api/public-forms/by-slug/:slug/confirm',
    {
      bodyLimit: SUBMISSION_BYTES,
      schema: {
        params: slugParams,
        body: confirmInput,
        response: { 200: z.object({ message: z.string(), receipt_url: z.string() }), 503: messageAnswer },
      },
      config: open,
    },
    async (request) => service.confirm(request.params.slug, request.body, senderOf(request)),
  );
  app.post(
    '/api/public-forms/by-slug/:slug/resend',
    {
      bodyLimit: SUBMISSION_BYTES,
      schema: {
        params: slugParams,
        body: resendInput,
        response: { 200: messageAnswer },
      },
      config: open,
    },
    async (request) => {
      const { message, sending } = await service.resend(request.params.slug, request.body, senderOf(request));
      // Not awaited: how long a mail takes would tell whether the address signed a card.
      sending.catch((error: unknown) =>
        request.log.warn({ err: error }, 'a card confirmation could not be sent again'),
      );
      return { message };
    },
  );
  app.get(
    '/api/public-forms/receipts/:token',
    {
      schema: { params: z.object({ token: z.string().max(200) }), querystring: noQuery, response: { 200: pdfFile } },
      config: open,
    },
    async (request, reply) => {
      const id = service.submissionOfToken(request.params.token);
      if (!id) throw notFound('This receipt link is not valid.');
      const pdf = await cardReceipt(await service.confirmedCard(id));
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="card-${id}.pdf"`)
        .send(Buffer.from(pdf));
    },
  );
};

export const publicFormsFeature: Feature = { plugin: fp(publicForms, { name: 'public-forms' }) };
