import { type en } from './en';

/** The shape of a language's texts: every key of `en`, each a string. */
export type TextTree<T> = {
  readonly [K in keyof T]: T[K] extends string ? string : TextTree<T[K]>;
};
export type Translation = TextTree<typeof en>;
