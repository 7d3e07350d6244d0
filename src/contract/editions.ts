/** Company-specific builds: `lihua` changes the password rule, `huanan` is a label. */
export const EDITIONS = ['default', 'lihua', 'huanan'] as const;
export type Edition = (typeof EDITIONS)[number];
