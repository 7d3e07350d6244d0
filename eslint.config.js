// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'public/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { import: importPlugin },
    // The plain Node resolver, told about TypeScript files: our imports are relative and
    // extensionless. (The TypeScript resolvers need a native binary the registry here lacks
    // for other platforms, which made the lockfile unusable for npm ci.)
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Cycles are ours to find; parsing bundled dependencies is slow and proves nothing.
      'import/ignore': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'import/no-default-export': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server/*', '../../server/*'],
              message: 'The browser never imports server code.',
            },
            {
              group: ['socket.io-client'],
              message: 'Only src/realtime owns the socket (STYLE.md #7).',
            },
            { group: ['node:*'], message: 'Browser code cannot use Node built-ins.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/realtime/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The browser never imports server code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../contract/*'],
              message: 'src/contract imports nothing from the rest of the project.',
            },
            { group: ['**/server/**'], message: 'src/contract is shared: no server code.' },
          ],
        },
      ],
    },
  },
  {
    // Config files are loaded by tools that expect a default export.
    files: ['*.config.ts', '*.config.js'],
    rules: { 'import/no-default-export': 'off' },
  },
);
