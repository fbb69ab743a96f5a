import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * Public forms and e-signed cards (docs/public-forms.md): a record form's submission written as the form's actor with
 * its revision; the abuse cases (rate limit, honeypot, oversized, duplicate, no CSRF pair); a card confirmed by its
 * emailed link and by its texted code, counted once; an unconfirmed card not counted; the PDF receipt.
 */
let t: TestApp;
let admin: TestClient;
let adminId: number;
let campaignId: number;
let provider: Awaited<ReturnType<typeof startReceiver>>;
const PER_HOUR = 4;
let address = 0;
/** A visitor from an address of their own (TRUST_PROXY is on): each test's rate count starts at zero. */
const visitor = () => {
  const client = t.client();
  const ip = `203.0.113.${++address}`;
  const headers = { 'x-forwarded-for': ip };
  return {
    ip,
    get: (path: string) => client.get(path, { headers }),
    post: (path: string, body: unknown, options: { raw?: string; csrf?: boolean } = {}) =>
      client.post(path, body, { headers, ...options }),
  };
};
const cards = async () => (await admin.get(`/api/campaigns/${campaignId}`)).body.data.progress.cards as number;

beforeAll(async () => {
  provider = await startReceiver([200]);
  t = await startTestApp({
    TRUST_PROXY: 'true',
    PUBLIC_FORM_SUBMISSIONS_PER_HOUR: String(PER_HOUR),
    SMS_API_URL: provider.url.replace(/\/hook$/, ''),
    SMS_ACCOUNT_SID: 'AC0001',
    SMS_AUTH_TOKEN: 'fake-provider-auth-token',
    SMS_FROM: '+15550001111',
  });
  admin = await t.admin();
  adminId = (await admin.get('/api/auth/check')).body.data.id;
  const campaign = await admin.post('/api/campaigns', { name: 'Riverfront drywall', unit_size: 10 });
  expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
  campaignId = campaign.body.data.id;
  const signUp = await admin.post('/api/public-forms', {
    title: 'Sign up',
    kind: 'record',
    record_type: 'contact',
    fields: ['first_name', 'last_name', 'email', 'phone'],
    thank_you: 'Thanks! An organizer will call you.',
  });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(201);
  const card = await admin.post('/api/public-forms', {
    title: 'Drywall union card',
    kind: 'card',
    campaign_id: campaignId,
    consent_text: 'I authorize the union to represent me in collective bargaining with my employer.',
    thank_you: 'Your card is confirmed. Thank you!',
  });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const signCard = (client: ReturnType<typeof visitor>, values: Record<string, unknown>, consent = true) =>
  client.post('/api/public-forms/by-slug/drywall-union-card/submissions', {
    values: { name: 'Rosa Diaz', employer: 'Acme Drywall', job: 'Taper', signature: 'Rosa Diaz', ...values },
    consent,
  });

describe('publishing', () => {
  it('refuses a field a stranger cannot fill in, a card form without a campaign, and anyone but an administrator', async () => {
    const relation = await admin.post('/api/public-forms', {
      title: 'Bad',
      kind: 'record',
      record_type: 'contact',
      fields: ['contractor_id'],
      thank_you: 'x',
    });
    expect(relation.status).toBe(422);
    // A link is offered only with the records it offers named (tests/api/public-form-links.test.ts).
    expect(relation.body.errors.fields[0]).toMatch(/"Employer" links to other records: choose which of them the form/);
    // A file field or a link to other records is refused with why (docs/public-forms.md).
    const schemas = (await admin.get('/api/schemas?per_page=-1')).body.data as Array<{ id: number; type: string }>;
    const contact = schemas.find((schema) => schema.type === 'contact')!;
    for (const [name, type, options, why] of [
      ['Photo', 'attachment', {}, /"Photo" cannot be on a public form: it is a file: public forms take no uploads/],
      [
        'Home sites',
        'relation',
        { target: 'site', multiple: true },
        /"Home sites" cannot be on a public form: it is a link to several records/,
      ],
    ] as const) {
      const field = await admin.post('/api/schema-fields', { schema_id: contact.id, name, type, options });
      expect(field.status, JSON.stringify(field.body)).toBe(201);
      const refused = await admin.post('/api/public-forms', {
        title: `With ${name}`,
        kind: 'record',
        record_type: 'contact',
        fields: ['first_name', field.body.data.slug],
        thank_you: 'x',
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.fields[0]).toMatch(why);
    }
    const card = await admin.post('/api/public-forms', {
      title: 'Card',
      kind: 'card',
      thank_you: 'x',
      consent_text: 'y',
    });
    expect(card.status).toBe(422);
    expect(card.body.errors.campaign_id).toBeDefined();
    const user = await t.createUser({ role: 'user' });
    const organizer = await t.signIn(user.email);
    expect((await organizer.get('/api/public-forms')).status).toBe(403);
  });

  it('shows the published form to anyone, without ids or its actor', async () => {
    const res = await visitor().get('/api/public-forms/by-slug/sign-up');
    expect(res.status).toBe(200);
    expect(res.body.data.fields.map((f: { slug: string }) => f.slug)).toEqual([
      'first_name',
      'last_name',
      'email',
      'phone',
    ]);
    expect(res.body.data).not.toHaveProperty('actor_id');
    expect((await visitor().get('/api/public-forms/by-slug/no-such-form')).status).toBe(404);
  });
});

describe('a record form', () => {
  it('writes the record through the data service as the form’s actor, with its revision', async () => {
    const res = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Marta', last_name: 'Public', email: 'Marta@Example.org', phone: '555-010-0100' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Thanks! An organizer will call you.');
    const contact = await t.ctx.db
      .selectFrom('contacts')
      .selectAll()
      .where('last_name', '=', 'Public')
      .executeTakeFirstOrThrow();
    const revision = await t.ctx.db
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_type', '=', 'contact')
      .where('revisionable_id', '=', contact.id)
      .executeTakeFirstOrThrow();
    expect(revision.action).toBe('created');
    const form = await t.ctx.db
      .selectFrom('public_forms')
      .select('actor_id')
      .where('slug', '=', 'sign-up')
      .executeTakeFirstOrThrow();
    expect(revision.user_id).toBe(form.actor_id);
    // The administrators' list counts each form's submissions.
    const list = await admin.get('/api/public-forms');
    const signUp = list.body.data.find((row: { slug: string }) => row.slug === 'sign-up');
    expect(signUp.submissions).toBe(1);
  });

  it('applies the type’s rules: a missing required field is a 422 naming it', async () => {
    const res = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { last_name: 'Nofirst' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.first_name).toBeDefined();
  });

  it('refuses the same email or phone twice (409), whatever its case or spacing', async () => {
    const first = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Dup', last_name: 'Once', email: 'dup@example.org' },
    });
    expect(first.status).toBe(201);
    const again = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Dup', last_name: 'Twice', email: ' DUP@example.org ' },
    });
    expect(again.status).toBe(409);
    const phone = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Dup', last_name: 'Phone', phone: '(555) 010-0100' },
    });
    expect(phone.status).toBe(409);
  });

  it('keeps nothing from a bot that filled in the honeypot, and answers it as a person', async () => {
    const before = await t.ctx.db
      .selectFrom('public_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Bot', last_name: 'Honeypot', email: 'bot@example.org' },
      website: 'http://spam.example',
    });
    expect(res.status).toBe(201);
    const after = await t.ctx.db
      .selectFrom('public_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(
      await t.ctx.db.selectFrom('contacts').select('id').where('last_name', '=', 'Honeypot').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses an oversized body and an overlong field (422 naming each)', async () => {
    const big = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Big', last_name: 'x'.repeat(40_000) },
    });
    expect(big.status).toBe(422);
    expect(big.body.errors.body[0]).toMatch(/32/);
    const long = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Long', last_name: 'x'.repeat(5_000) },
    });
    expect(long.status).toBe(422);
    expect(long.body.errors.last_name).toBeDefined();
  });

  it('limits submissions per address (429 with Retry-After), other addresses unaffected', async () => {
    const client = visitor();
    for (let i = 0; i < PER_HOUR; i++) {
      const res = await client.post('/api/public-forms/by-slug/sign-up/submissions', {
        values: { first_name: 'Rate', last_name: `Limited ${i}` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const refused = await client.post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Rate', last_name: 'Refused' },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await visitor().post('/api/public-forms/by-slug/sign-up/submissions', {
      values: { first_name: 'Rate', last_name: 'Other address' },
    });
    expect(other.status).toBe(201);
  });

  it('refuses a post without the CSRF cookie and header pair (419)', async () => {
    const res = await visitor().post(
      '/api/public-forms/by-slug/sign-up/submissions',
      { values: { first_name: 'No', last_name: 'Csrf' } },
      { csrf: false },
    );
    expect(res.status).toBe(419);
  });
});

describe('an e-signed card', () => {
  it('is kept as signed but not counted until its emailed link is followed; then counted once, with a receipt', async () => {
    const before = await cards();
    const client = visitor();
    const signed = await signCard(client, { email: 'rosa@example.org' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body.confirm_via).toBe('email');
    const kept = await t.ctx.db
      .selectFrom('public_submissions')
      .selectAll()
      .where('email', '=', 'rosa@example.org')
      .executeTakeFirstOrThrow();
    expect(kept.confirmed_at).toBeNull();
    expect(kept.ip).toBe(client.ip);
    expect(kept.submitted).toMatchObject({
      name: 'Rosa Diaz',
      employer: 'Acme Drywall',
      job: 'Taper',
      signature: 'Rosa Diaz',
      consent_text: 'I authorize the union to represent me in collective bargaining with my employer.',
    });
    expect(await cards()).toBe(before);

    const mail = t.mails.find((m) => m.to === 'rosa@example.org')!;
    const token = /confirm=([\w.-]+)/.exec(mail.text)![1];
    expect(
      (await client.post('/api/public-forms/by-slug/drywall-union-card/confirm', { token: `${token}x` })).status,
    ).toBe(422);
    const confirmed = await client.post('/api/public-forms/by-slug/drywall-union-card/confirm', { token });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await cards()).toBe(before + 1);
    const twice = await visitor().post('/api/public-forms/by-slug/drywall-union-card/confirm', { token });
    expect(twice.status).toBe(200);
    expect(await cards()).toBe(before + 1);

    const card = await t.ctx.db
      .selectFrom('campaign_cards')
      .selectAll()
      .where('worker_name', '=', 'Rosa Diaz')
      .executeTakeFirstOrThrow();
    const revision = await t.ctx.db
      .selectFrom('revisions')
      .select('user_id')
      .where('revisionable_type', '=', 'campaign-card')
      .where('revisionable_id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(revision.user_id).toBe(adminId);

    const receipt = await fetch(`${t.baseUrl}${confirmed.body.receipt_url}`);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await receipt.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await fetch(`${t.baseUrl}${confirmed.body.receipt_url}x`)).status).toBe(404);
    const staff = await admin.get(`/api/public-submissions/${kept.id}/receipt`);
    expect(staff.status).toBe(200);
  });

  it('is confirmed by the code texted to the phone', async () => {
    const before = await cards();
    const client = visitor();
    const signed = await signCard(client, { name: 'Luis Ortega', signature: 'luis  ortega', phone: '(555) 010-0200' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body.confirm_via).toBe('sms');
    const text = new URLSearchParams(provider.received.at(-1)!.body);
    expect(text.get('To')).toBe('+15550100200');
    const code = /(\d{6})/.exec(text.get('Body')!)![1];
    const wrong = await client.post('/api/public-forms/by-slug/drywall-union-card/confirm', {
      submission_id: signed.body.submission_id,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(422);
    expect(await cards()).toBe(before);
    const right = await client.post('/api/public-forms/by-slug/drywall-union-card/confirm', {
      submission_id: signed.body.submission_id,
      code,
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(await cards()).toBe(before + 1);
  });

  it('is refused without consent, with a signature that is not the name, or a second time for one email', async () => {
    const noConsent = await signCard(visitor(), { email: 'noconsent@example.org' }, false);
    expect(noConsent.status).toBe(422);
    expect(noConsent.body.errors.consent).toBeDefined();
    const badSignature = await signCard(visitor(), { email: 'sig@example.org', signature: 'R' });
    expect(badSignature.status).toBe(422);
    expect(badSignature.body.errors.signature).toBeDefined();
    const again = await signCard(visitor(), { email: 'ROSA@example.org' });
    expect(again.status).toBe(409);
  });

  it('sends a lost confirmation again with a new link, never telling whether an address signed, 3 times an hour', async () => {
    const resend = (body: unknown) => visitor().post('/api/public-forms/by-slug/drywall-union-card/resend', body);
    const signed = await signCard(visitor(), { name: 'Lola Lost', signature: 'Lola Lost', email: 'lola@example.org' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const mailsTo = (to: string) => t.mails.filter((mail) => mail.to === to);
    const oldToken = /confirm=([\w.-]+)/.exec(mailsTo('lola@example.org')[0].text)![1];

    const again = await resend({ email: ' Lola@Example.org ' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await expect.poll(() => mailsTo('lola@example.org').length).toBe(2);
    const newToken = /confirm=([\w.-]+)/.exec(mailsTo('lola@example.org')[1].text)![1];
    expect(newToken).not.toBe(oldToken);
    const stranger = await resend({ email: 'nobody@example.org' });
    expect(stranger.status).toBe(200);
    expect(stranger.body.message).toBe(again.body.message.replace('lola@example.org', 'nobody@example.org'));
    expect((await resend({})).status).toBe(422);

    const confirm = (token: string) =>
      visitor().post('/api/public-forms/by-slug/drywall-union-card/confirm', { token });
    expect((await confirm(oldToken)).status).toBe(422);
    expect((await confirm(newToken)).status).toBe(200);
    // Confirmed: sending again sends nothing, and says the same.
    const confirmedAgain = await resend({ email: 'lola@example.org' });
    expect(confirmedAgain.body.message).toBe(again.body.message);
    expect((await resend({ email: 'lola@example.org' })).status).toBe(200);
    const refused = await resend({ email: 'lola@example.org' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mailsTo('lola@example.org')).toHaveLength(2);
    expect(mailsTo('nobody@example.org')).toHaveLength(0);
  });

  it('texts a new code to a card whose code was lost; the old code stops working', async () => {
    const client = visitor();
    const signed = await signCard(client, { name: 'Tom Text', signature: 'Tom Text', phone: '(555) 010-0300' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const codeOf = () => /(\d{6})/.exec(new URLSearchParams(provider.received.at(-1)!.body).get('Body')!)![1];
    const first = codeOf();
    const texts = provider.received.length;
    const again = await client.post('/api/public-forms/by-slug/drywall-union-card/resend', {
      submission_id: signed.body.submission_id,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    await expect.poll(() => provider.received.length).toBe(texts + 1);
    expect(new URLSearchParams(provider.received.at(-1)!.body).get('To')).toBe('+15550100300');
    const second = codeOf();
    const confirm = (code: string) =>
      visitor().post('/api/public-forms/by-slug/drywall-union-card/confirm', {
        submission_id: signed.body.submission_id,
        code,
      });
    if (second !== first) expect((await confirm(first)).status).toBe(422);
    expect((await confirm(second)).status).toBe(200);
  });

  it('an unconfirmed card is never counted', async () => {
    const before = await cards();
    const signed = await signCard(visitor(), {
      name: 'Una Confirmed',
      signature: 'Una Confirmed',
      email: 'una@example.org',
    });
    expect(signed.status).toBe(201);
    expect(await cards()).toBe(before);
    const staff = await admin.get(`/api/public-submissions/${signed.body.submission_id}/receipt`);
    expect(staff.status).toBe(404);
  });
});

describe('the submissions list', () => {
  it('answers a page at a time, newest first, with the total and how many cards are confirmed', async () => {
    const form = await admin.post('/api/public-forms', {
      title: 'Paged sign up',
      kind: 'record',
      record_type: 'contact',
      fields: ['first_name', 'last_name', 'email'],
      thank_you: 'Thanks.',
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    for (const name of ['Ana', 'Ben', 'Cleo']) {
      const sent = await visitor().post('/api/public-forms/by-slug/paged-sign-up/submissions', {
        values: { first_name: name, last_name: 'Paged', email: `${name.toLowerCase()}.paged@example.org` },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    const path = `/api/public-forms/${form.body.data.id}/submissions`;
    const first = await admin.get(`${path}?page=1&per_page=2`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((row: { submitted: { first_name: string } }) => row.submitted.first_name)).toEqual([
      'Cleo',
      'Ben',
    ]);
    expect(first.body.meta).toMatchObject({ total: 3, last_page: 2, current_page: 1, confirmed: 0 });
    const second = await admin.get(`${path}?page=2&per_page=2`);
    expect(second.body.data.map((row: { submitted: { first_name: string } }) => row.submitted.first_name)).toEqual([
      'Ana',
    ]);
    expect((await admin.get(`${path}?per_page=1000`)).status).toBe(422);
  });
});

describe('unpublishing', () => {
  it('deletes a form nobody has sent, and refuses to delete one with submissions (their record is kept)', async () => {
    const forms = (await admin.get('/api/public-forms')).body.data as Array<{ id: number; slug: string }>;
    const card = forms.find((form) => form.slug === 'drywall-union-card')!;
    const refused = await admin.delete(`/api/public-forms/${card.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/close it instead/);
    expect((await visitor().get('/api/public-forms/by-slug/drywall-union-card')).status).toBe(200);
    const unused = await admin.post('/api/public-forms', {
      title: 'Nobody sends this',
      kind: 'record',
      record_type: 'contact',
      fields: ['first_name', 'last_name', 'email'],
      thank_you: 'Thanks.',
    });
    expect(unused.status, JSON.stringify(unused.body)).toBe(201);
    expect((await admin.delete(`/api/public-forms/${unused.body.data.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/public-forms/${unused.body.data.id}`)).status).toBe(404);
  });

  it('the database itself refuses to delete a form with submissions, so none sent meanwhile is lost with it', async () => {
    const form = await admin.post('/api/public-forms', {
      title: 'Sent while being deleted',
      kind: 'record',
      record_type: 'contact',
      fields: ['first_name', 'last_name', 'email'],
      thank_you: 'Thanks.',
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const sent = await visitor().post('/api/public-forms/by-slug/sent-while-being-deleted/submissions', {
      values: { first_name: 'Ana', last_name: 'Ruiz', email: 'ana.ruiz@example.org' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // What a delete that counted before the submission arrived would then run: the key refuses it.
    await expect(
      t.ctx.db.deleteFrom('public_forms').where('id', '=', form.body.data.id).execute(),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^23(001|503)$/) });
    const refused = await admin.delete(`/api/public-forms/${form.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This form has 1 submission, kept as their record: close it instead of deleting it.',
    );
    const kept = await admin.get(`/api/public-forms/${form.body.data.id}/submissions`);
    expect(kept.body.data).toHaveLength(1);
  });
});
