/**
 * English through ra-i18n-polyglot. Schema tokens are added when schemas load: `setSchemas` rebuilds the
 * messages (polyglot copies its phrases, so the provider re-reads them through changeLocale).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import type { Schema } from '../system/types';
import { buildMessages } from './messages';

export const LOCALE = 'en';

export interface AppI18nProvider extends I18nProvider {
  setSchemas(schemas: readonly Schema[]): Promise<void>;
}

export function createI18nProvider(): AppI18nProvider {
  let schemas: readonly Schema[] = [];
  const provider = polyglotI18nProvider(
    () => buildMessages(schemas) as TranslationMessages,
    LOCALE,
    [{ locale: LOCALE, name: 'English' }],
    {
      allowMissing: true,
    },
  );
  return {
    ...provider,
    translate: (key, options) => provider.translate(key, options),
    changeLocale: (locale, options) => provider.changeLocale(locale, options),
    getLocale: () => provider.getLocale(),
    async setSchemas(next) {
      schemas = next;
      await provider.changeLocale(LOCALE);
    },
  };
}
