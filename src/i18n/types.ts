import { type en } from './en';
import { type TextTree } from './textTree';

export type { TextTree } from './textTree';
export type Translation = TextTree<typeof en>;
