/** i18next's plural forms other than `_other`: a language has only those its grammar uses. */
type PluralForm = `${string}_${'zero' | 'one' | 'two' | 'few' | 'many'}`;

/**
 * The shape of a language's texts: every key of the English tree, each a string; a plural form
 * (`count_one`) may be left out, since Chinese counts with `_other` alone.
 */
export type TextTree<T> = {
  readonly [K in keyof T as K extends PluralForm ? never : K]: T[K] extends string
    ? string
    : TextTree<T[K]>;
} & {
  readonly [K in keyof T as K extends PluralForm ? K : never]?: string;
};
