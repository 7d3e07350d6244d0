/** The folders no lint step reads (see lintIgnored.mjs). */
export declare const LINT_IGNORED: readonly string[];
