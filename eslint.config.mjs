// Lint rules: typescript-eslint's type-aware recommended set, for the mistakes a type checker
// alone lets through (floating promises, misused promises, unsafe any); prettier owns the format.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      '*.config.js',
      '*.config.mjs',
      '.dependency-cruiser.cjs',
      'test/**/*.mjs',
      'dashboard/build.mjs',
      'scripts/**/*.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its error; say `void` where that is meant.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Nest's decorators and class-validator take classes with no methods, and DTO fields are set by the framework.
      '@typescript-eslint/no-extraneous-class': 'off',
      // Methods that implement a framework's async interface (throttler storage, guards) need not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The admin area's event handlers are async by nature; a rejected one shows its error in the page.
    files: ['dashboard/src/**/*.tsx'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  {
    // Questions are in-page <dialog>s (contract §13): a native one blocks the page, escapes axe and
    // browser tests, and a dismissing browser or a stray Enter answers it.
    files: ['dashboard/**/*.{ts,tsx}'],
    rules: {
      'no-alert': 'error',
      'no-restricted-globals': [
        'error',
        ...['alert', 'confirm', 'prompt'].map((name) => ({ name, message: 'Ask in a <dialog> (ui/dialog.tsx).' })),
      ],
    },
  },
  {
    // A handler's return type is its documented answer (the response classes of dto/): the
    // compiler then holds the OpenAPI document to what the handler returns.
    files: ['src/**/*.controller.ts'],
    rules: { '@typescript-eslint/explicit-function-return-type': ['error', { allowExpressions: true }] },
  },
  {
    // class-validator's IsOptional takes `null` for absent, so a `null` in a body would pass as "not
    // given" where the field is not nullable; say OptionalNotNull or Nullable (field-decorators.ts).
    // The environment schema alone may use it: a variable is never null.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsOptional'],
              message: 'Use OptionalNotNull or Nullable (src/common/validation/field-decorators.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers of the API under test, typed `any` by supertest.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
