/** The shape of a language's texts: every key of the English tree, each a string. */
export type TextTree<T> = {
  readonly [K in keyof T]: T[K] extends string ? string : TextTree<T[K]>;
};
