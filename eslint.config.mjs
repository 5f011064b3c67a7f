// Lint: code quality plus the package boundaries (docs/architecture.md), enforced rather than hoped for.
//  - a remote imports neither the shell nor another remote;
//  - shared imports none of our packages, and its core/ is framework-free;
//  - the api imports only shared's framework-free subpath (@portal/shared/core/*), and nothing in it
//    but routes/ imports routes/ (autoloaded: helpers live in modules/ and lib/);
//  - antd and its icons are imported only by the UI kit (shared/src/ui), which keeps one antd
//    instance across the federation without shipping all of antd on the first page.
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const REMOTES = ['mfe-projects', 'mfe-requests', 'mfe-settings', 'mfe-reports'];
const ANTD = {
  group: ['antd', 'antd/*', '@ant-design/icons', '@ant-design/icons/*'],
  message: 'Import antd through @portal/shared/ui (the shared UI kit), so the federation keeps one antd.',
};
const ROUTER = {
  group: ['react-router', 'react-router/*', 'react-router-dom', 'react-router-dom/*'],
  message: 'Import routing through @portal/shared/web/router, so the federation keeps one router.',
};
const STORE = {
  group: ['@reduxjs/toolkit', '@reduxjs/toolkit/*', 'react-redux'],
  message:
    'Import Redux Toolkit, RTK Query and react-redux through @portal/shared/web/store, so the federation keeps one store context.',
};
const OPENFEATURE = {
  group: ['@openfeature/*'],
  message:
    'Only the shell runs the OpenFeature SDK (loaded lazily): read flags with useFeatureFlag from @portal/shared/web/flags.',
};
const OTHER_PACKAGES = {
  group: ['@portal/*', '@portal/*/**', '!@portal/shared', '!@portal/shared/**'],
  message: 'shared imports none of our other packages.',
};
const crossPackage = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.data/**',
      'lint/fixtures/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { typescript: { project: ['*/tsconfig.json'], noWarnOnMultipleProjects: true }, node: true },
      'import/internal-regex': '^@portal/',
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...REMOTES.map((r) =>
              crossPackage(
                `./${r}`,
                ['./shell', './api', ...REMOTES.filter((o) => o !== r).map((o) => `./${o}`)],
                'A remote may not import the shell, the api or another remote: move what both need to shared.',
              ),
            ),
            crossPackage(
              './shell',
              ['./api', ...REMOTES.map((r) => `./${r}`)],
              'The shell loads remotes at run time; it never imports them.',
            ),
            crossPackage(
              './shared',
              ['./shell', './api', ...REMOTES.map((r) => `./${r}`)],
              'shared imports none of our packages.',
            ),
            crossPackage(
              './api',
              [
                './shell',
                ...REMOTES.map((r) => `./${r}`),
                './shared/src/web',
                './shared/src/ui',
                './shared/src/testing',
              ],
              'The api imports only the framework-free part of shared (@portal/shared/core/*).',
            ),
            crossPackage(
              ['./api/src/lib', './api/src/modules', './api/src/plugins', './api/src/test', './api/src/quality'],
              './api/src/routes',
              'api/src/routes is autoloaded (docs/adr/0011-api-tree-and-autoload.md): move what others need to modules/ or lib/.',
            ),
          ],
        },
      ],
    },
  },
  ...REMOTES.map((r) => ({
    files: [`${r}/**/*.{ts,tsx,js}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@portal/shell',
                '@portal/shell/*',
                '@portal/mfe-*',
                '@portal/mfe-*/**',
                '@portal/api',
                '@portal/api/**',
              ],
              message: 'A remote may not import the shell, the api or another remote.',
            },
            ANTD,
            ROUTER,
            STORE,
            OPENFEATURE,
          ],
        },
      ],
    },
  })),
  {
    files: ['shell/**/*.{ts,tsx,js}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portal/mfe-*', '@portal/mfe-*/**', '@portal/api', '@portal/api/**'],
              message: 'The shell loads remotes at run time; it never imports them.',
            },
            ANTD,
            ROUTER,
            STORE,
          ],
        },
      ],
    },
  },
  // shared: only its kits import the libraries they wrap
  {
    files: ['shared/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PACKAGES, ANTD, ROUTER, STORE, OPENFEATURE] }] },
  },
  {
    files: ['shared/src/ui/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PACKAGES, ROUTER, STORE] }] },
  },
  {
    files: ['shared/src/web/router.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PACKAGES, ANTD, STORE] }] },
  },
  {
    files: ['shared/src/web/store.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PACKAGES, ANTD, ROUTER] }] },
  },
  // tests build their own store and router from the real libraries
  {
    files: ['shared/src/testing/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [OTHER_PACKAGES, ANTD] }] },
  },
  {
    files: ['shared/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react/*',
                'react-*',
                '@reduxjs/*',
                'rxjs',
                'rxjs/*',
                'antd',
                'antd/*',
                '@ant-design/*',
                '@portal/*',
                '@portal/*/**',
                '../web/*',
                '../ui/*',
              ],
              message: 'shared/core is framework-free: the api imports it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@portal/*',
                '@portal/*/**',
                '!@portal/shared',
                '!@portal/shared/core',
                '!@portal/shared/core/*',
                '!@portal/shared/core/*/*',
              ],
              message: 'The api imports only @portal/shared/core/*.',
            },
            {
              group: ['@portal/shared/*', '!@portal/shared/core'],
              message: 'The api imports only @portal/shared/core/*.',
            },
            ANTD,
          ],
        },
      ],
    },
  },
  {
    // migrations take Kysely<any> on purpose: they are frozen in time and never import app types
    files: ['api/src/db/migrations/**/*.ts', 'api/src/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Playwright fixtures: `use` is the fixture callback, and `{}` is its required first argument
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-var-requires': 'off' },
  },
);
