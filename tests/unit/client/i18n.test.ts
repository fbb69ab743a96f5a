import { describe, expect, it } from 'vitest';
import { DATE_LOCALE, formatDate, startOfWeek, WEEK_STARTS_ON, weekdayNames } from '../../../src/client/i18n/dates';
import { createI18nProvider } from '../../../src/client/i18n/i18nProvider';
import { titleCase } from '../../../src/client/i18n/labels';
import { buildMessages, schemaMessages } from '../../../src/client/i18n/messages';

const schemas = [
  {
    id: 1,
    type: 'site',
    name_singular: 'job site',
    name_plural: 'job sites',
    fields: [{ id: 1, slug: 'bid_date', name: 'Bid date' }],
  },
  { id: 2, type: 'contact', name_singular: 'Contact', name_plural: 'Contacts', fields: [] },
];

describe('i18n', () => {
  it('has all of react-admin messages', () => {
    const i18n = createI18nProvider();
    expect(i18n.translate('ra.action.save')).toBe('Save');
    expect(i18n.translate('ra.auth.sign_in')).toBe('Sign in');
    expect(i18n.getLocale()).toBe('en');
  });

  it('list footer reads "Displaying {from} to {to} of {total}"', () => {
    const i18n = createI18nProvider();
    expect(i18n.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 25, total: 90 })).toBe(
      'Displaying 1 to 25 of 90',
    );
    expect(i18n.translate('app.datatable.displaying', { from: 26, to: 50, total: 90 })).toBe(
      'Displaying 26 to 50 of 90',
    );
  });

  it('site-type label tokens of SPEC section 9', () => {
    const i18n = createI18nProvider();
    const expected: Record<string, string> = {
      contact: 'Contact',
      development: 'Development',
      lcmt: 'LCMT',
      lmcc: 'LMCC',
      general: 'General',
      mega: 'Mega',
      mixed: 'Mixed',
      'new-project': 'New Projects',
      'non-union': 'Non-Union',
      none: 'No Type',
      organizing: 'Organizing',
      pla: 'PLA',
      'public-works': 'Public Works',
      recruit: 'Recruit',
      residential: 'Residential',
      sb740: 'SB740',
      sb740projects: 'SB740Projects',
      sb740co: 'SB740CO',
      sb54co: 'SB54CO',
      union: 'Union',
      permits: 'Permits',
      'utility-boiler': 'Utility Boiler',
    };
    for (const [slug, label] of Object.entries(expected)) expect(i18n.translate(`type.${slug}`)).toBe(label);
  });

  it('schema-name tokens: singular and plural, plain, lower and title', async () => {
    const i18n = createI18nProvider();
    await i18n.setSchemas(schemas);
    expect(i18n.translate('schemas.site.singular')).toBe('job site');
    expect(i18n.translate('schemas.site.plural')).toBe('job sites');
    expect(i18n.translate('schemas.site.singular_lower')).toBe('job site');
    expect(i18n.translate('schemas.site.plural_title')).toBe('Job Sites');
    expect(i18n.translate('schemas.site.singular_title')).toBe('Job Site');
    expect(i18n.translate('schemas.contact.plural_lower')).toBe('contacts');
    expect(i18n.translate('resources.sites.name', { smart_count: 1 })).toBe('Job Site');
    expect(i18n.translate('resources.sites.name', { smart_count: 2 })).toBe('Job Sites');
    expect(i18n.translate('resources.sites.fields.bid_date')).toBe('Bid date');
    expect(i18n.translate('resources.sites.notifications.created')).toBe('Job site created successfully.');
    expect(i18n.translate('ra.action.save')).toBe('Save');
  });

  it('app strings of the spec', () => {
    const messages = buildMessages([]);
    expect(messages.app.tagline).toBe('Navigate. Organize. Grow.');
    expect(messages.app.not_found.message).toBe("Sorry, we couldn't find this page.");
    const i18n = createI18nProvider();
    expect(i18n.translate('app.session.expiring_message', { seconds: 42 })).toBe(
      'You will be automatically signed out in 42 seconds.',
    );
    expect(i18n.translate('app.system.updated', { product: 'Organizing Map' })).toBe(
      'Organizing Map has updated. Please refresh your page.',
    );
  });

  it('schemaMessages uses the type as a last resort', () => {
    const messages = schemaMessages([{ id: 3, type: 'union', name_singular: '', name_plural: '' }]);
    expect(messages.schemas.union.singular).toBe('union');
    expect(titleCase('public-works sites')).toBe('Public-Works Sites');
  });

  it('dates are en-US with weeks starting Monday', () => {
    expect(DATE_LOCALE).toBe('en-US');
    expect(WEEK_STARTS_ON).toBe(1);
    expect(formatDate(new Date(2025, 2, 9))).toBe('Mar 9, 2025');
    // Sunday 2025-03-09 belongs to the week starting Monday 2025-03-03.
    expect(startOfWeek(new Date(2025, 2, 9, 15)).getDate()).toBe(3);
    expect(startOfWeek(new Date(2025, 2, 10)).getDate()).toBe(10);
    expect(weekdayNames()[0]).toBe('Mon');
  });
});
