// ESLint flat config. Besides the usual rules it enforces the environment layering
// (as VS Code does with common / node / electron-main / browser):
//   shared/          runs anywhere: no Node, no DOM, no Electron, no React
//   electron/core/   plain Node: never imports `electron`, nor a front end (the CLI, the update
//                    commands, the preview, the demo service, main/, preload/): the entry points
//                    pass those parts in
//   electron/**      only the glue folders (main/, preload/) import `electron`
//   renderer/        browser only: no Node built-ins, no Electron, no core code, and the
//                    zod-bearing shared modules (contract, report) as types only
// Every word a person reads comes from the message catalogues (issue 28): the local rule
// reportdesk/no-untranslated-text (scripts/eslint/noUntranslatedText.mjs) fails on literal text
// in the renderer's JSX and in the main process's menus, dialogs and notifications.
// No import cycles anywhere: tests/unit/layers.test.ts walks the import graph, and lints each
// fixture in tests/lint-fixtures/ to show every rule above fails on a deliberate violation.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import reportdesk from './scripts/eslint/noUntranslatedText.mjs';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto'];
const noNode = nodeBuiltins.map((name) => ({
  group: [name],
  message: 'Node built-ins are not allowed here.',
}));
const noElectron = {
  group: ['electron'],
  message: 'Only electron/main and electron/preload import electron.',
};
const noFrontEnds = {
  regex: '^(\\.\\./)+(cli|updates-cli|preview|demo-service|main|preload)(/|$)',
  message:
    'electron/core serves every front end and imports none: take the part as an option (as services.ts takes demoLauncher).',
};
// The renderer ships without zod: the contract's and report's schemas stay in the core.
const zodBearingShared = {
  regex: '(^|/)shared/(contract|report)$',
  allowTypeImports: true,
  message:
    'The renderer imports shared/contract and shared/report as types only (import type): they carry zod.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'release/',
      'test-results/',
      'playwright-report/',
      'coverage/',
      // StrykerJS's sandbox copy of the project and its reports (npm run mutation).
      '.stryker-tmp/',
      'reports/',
      'tests/lint-fixtures/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noNode,
            noElectron,
            { group: ['react', 'react-dom', '@tanstack/*'], message: 'shared/ is environment-free.' },
            { group: ['../electron/*', '../renderer/*'], message: 'shared/ depends on nothing above it.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'require', 'Buffer'],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main/**', 'electron/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron, noFrontEnds] }] },
  },
  {
    // What the main process shows: the application menu, dialogs, notifications, the window.
    files: ['electron/main/**/*.ts', 'electron/core/desktop/**/*.ts'],
    plugins: { reportdesk },
    rules: { 'reportdesk/no-untranslated-text': ['error', { main: true }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'tests/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noNode,
            noElectron,
            {
              group: ['**/electron/**'],
              message: 'The renderer talks to the core only through window.reportDesk.',
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [zodBearingShared] }],
    },
  },
  {
    // What the end-to-end specs run inside the page (tests/e2e/pageScript.ts bundles it).
    files: ['tests/e2e/page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The app's own code (its tests render fixtures of their own).
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { reportdesk },
    rules: { 'reportdesk/no-untranslated-text': 'error' },
  },
);
