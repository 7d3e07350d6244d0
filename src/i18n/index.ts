import i18next, { type i18n } from 'i18next';
import { type Locale } from '../contract/envelope';
import { en } from './en';
import { zh } from './zh';

export const RESOURCES = { en: { translation: en }, zh: { translation: zh } } as const;

/**
 * One i18next instance for the console, initialised synchronously (the resources are bundled,
 * so the first render already has its texts).
 */
export function createI18n(language: Locale): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources: RESOURCES,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: ['en', 'zh'],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}
