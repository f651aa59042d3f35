// ESLint flat config. The import zones keep the simulator pure and the renderer off the main process.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import vueParser from 'vue-eslint-parser';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-main/**/*.ts', 'tests/**/*.ts', 'bin/**/*.mjs', '*.config.*', 'scripts/**/*.mjs', '.ci/**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The simulator: pure TypeScript. No Node built-ins, Electron, database or DOM.
    files: ['src-sim/**/*.ts'],
    ignores: ['src-sim/worker.ts'],
    languageOptions: { globals: { ...globals.es2022 } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'src-sim is pure: no Node built-ins.' })),
            { name: 'electron', message: 'src-sim is pure: no Electron.' },
            { name: 'better-sqlite3', message: 'src-sim is pure: no database.' },
          ],
          patterns: [
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-sim imports nothing from main or renderer.' },
            { group: ['vue', 'pinia', 'echarts', 'echarts/*'], message: 'src-sim is pure: no UI libraries.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'process', 'require', 'Buffer', '__dirname'].map((name) => ({
          name,
          message: `src-sim is pure: no ${name}.`,
        })),
      ],
    },
  },
  {
    // The simulation process's entry: the one file of src-sim that talks to its process (process.parentPort,
    // process.send, process.env). It still imports src-sim only: no Node built-ins, Electron, main or renderer.
    files: ['src-sim/worker.ts'],
    languageOptions: { globals: { ...globals.es2022, process: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'The worker imports src-sim only (it reaches its process through the process global).' })),
            { name: 'electron', message: 'The worker detects Electron through process.parentPort; it never imports electron.' },
            { name: 'better-sqlite3', message: 'The worker imports src-sim only: no database.' },
          ],
          patterns: [
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'The worker imports src-sim only.' },
            { group: ['vue', 'pinia', 'echarts', 'echarts/*'], message: 'The worker imports src-sim only.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'require', 'Buffer', '__dirname'].map((name) => ({
          name,
          message: `The worker uses only process from its host: no ${name}.`,
        })),
      ],
    },
  },
  {
    // The main process never imports the renderer: what both need (chart options, the findings'
    // true values) lives in src-main/shared.
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/shared/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src-renderer/**'], message: 'src-main imports nothing of the renderer: put what both need in src-main/shared.' }] },
      ],
    },
  },
  {
    // Browser-safe modules of src-main (the browser mode's HTTP client and its wire codec): the renderer
    // imports them at runtime, so they import no Node built-ins, Electron, database or main-side services.
    files: ['src-main/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'src-main/shared runs in the browser: no Node built-ins.' })),
            { name: 'electron', message: 'src-main/shared runs in the browser: no Electron.' },
            { name: 'better-sqlite3', message: 'src-main/shared runs in the browser: no database.' },
          ],
          patterns: [
            { regex: '(^|/)(services|electron|web|cli)(/|$)', message: 'src-main/shared imports only the contract and its own folder.' },
            { group: ['**/src-renderer/**'], message: 'src-main/shared imports nothing of the renderer.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'require', 'Buffer', '__dirname', '__filename', 'window', 'document'].map((name) => ({
          name,
          message: `src-main/shared runs in the browser and in Node: no ${name}.`,
        })),
      ],
    },
  },
  {
    // Single-file components: their <script> blocks parsed as TypeScript (the template is vue-tsc's).
    files: ['src-renderer/**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' } },
  },
  {
    // The renderer talks only to the contract; it may import types (only) from src-main.
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.vue'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs sandboxed: no Node built-ins.' })),
            { name: 'electron', message: 'The renderer uses window.lab, never Electron directly.' },
            { name: 'better-sqlite3', message: 'The renderer never touches the database.' },
          ],
          patterns: [
            {
              // Anything of src-main except src-main/shared/ (browser-safe modules: the browser mode's client).
              regex: '(^|/)src-main/(?!shared/)',
              allowTypeImports: true,
              message: 'The renderer may import only types from src-main (the contract), and src-main/shared/ at runtime.',
            },
            {
              // The simulator's model and the real-GPU experiments' resolution stay in the main process
              // (tests/e2e/bundle.spec.ts checks the built bundle for them too).
              regex: '(^|/)src-sim/(model/|cuda/params$)',
              allowTypeImports: true,
              message: 'The renderer ships no simulator model or experiment code: ask the services (the run, gpu.experiments).',
            },
          ],
        },
      ],
    },
  },
);
