// Lint: what the project cares about, checked by the compiler's own types (typescript-eslint's
// project service reads each layer's tsconfig). `npm run lint` runs it with Prettier's check;
// `npm test` runs both before any suite (scripts/test.mjs).
//
// - no floating or misused promises: an unawaited promise loses its error;
// - nothing unused (the compiler checks locals and parameters; this adds imports of types);
// - no `any` in src/ outside the declared edges (the DoltLite binding, whose package has no types);
// - functions about 60 lines at most, files about 400: split by what each part does.
// The layer rule (which folder of src/ may import which, every import form) is
// test/unit/layers.test.ts, not a lint rule, so it has one home.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FUNCTION_LINES = { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true };
const FILE_LINES = { max: 400, skipBlankLines: true, skipComments: true };

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    ignores: ['dist/**', '.cache/**', '.artifacts/**', '.demo/**', '.tsbuild/**', 'node_modules/**', 'bench/.out/**', 'media/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // Input checks name control characters on purpose (refs, file names, SQL text).
      'no-control-regex': 'off',
      'max-lines-per-function': ['error', FUNCTION_LINES],
      'max-lines': ['error', FILE_LINES],
    },
  },
  {
    // The declared edges where `any` is allowed: the DoltLite binding has no types of its own.
    files: ['src/hub/doltlite.d.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests: a describe() block is a list of cases, not a function to split; `any` reaches into fakes.
    files: ['test/**/*.ts'],
    rules: {
      'max-lines-per-function': 'off',
      'max-lines': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // CommonJS where every runtime of the tests must load the same file (test/helpers/waitFor.cjs).
    files: ['**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'commonjs', globals: globals.node },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      // Scripts run in Node; e2e and bench code also passes functions to the browser (page.evaluate).
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
);
