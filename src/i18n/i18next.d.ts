import 'i18next';
import { type en } from './en';

// `t()` only accepts keys of the English resources: an unknown key fails the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
