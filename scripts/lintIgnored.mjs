// The folders no lint step reads: built output, dependencies, data and benchmark results.
// One list for ESLint (eslint.config.js) and the import-cycle check (scripts/importCycles.ts),
// so the two cannot come to disagree about what is the project's own code.
export const LINT_IGNORED = ['dist', 'node_modules', 'data', '.tmp', 'public', 'bench/results'];
