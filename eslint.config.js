import tseslint from 'typescript-eslint';

/** Layering (docs/ARCHITECTURE.md): which folder may import which. An import is matched as written (relative paths included). */
const NO_OPS = {
  regex: '^(\\.\\./)+ops/',
  message: 'ops/ (the simulator, the demo, the CLI) builds on the service; the service does not import it.',
};
const NO_REDIS_IN_API = {
  regex: '^(\\.\\./)+shared/redis/',
  message: 'api/ reaches Redis through the stores and services it is given, never through shared/redis.',
};
/** A connection of api/'s own: the client module's factories, or the Redis client package (their types stay importable). */
const NO_CONNECTION_IN_API = {
  regex: '^(\\.\\./)+shared/core/redis-client(\\.js)?$|^ioredis(/|$)',
  allowTypeImports: true,
  message:
    'api/ reaches Redis only through what the composition root hands it (shared/domain.ts, shared/api-pod.ts): no connection, subscriber or store built from shared/core/redis-client or ioredis.',
};
/** shared/core/ imports its own files and packages only: a feature's settings or stores would give core its vocabulary. */
const NO_FEATURE_IN_CORE = {
  regex: '^\\.\\./',
  message: "shared/core/ imports no feature: only its own files and packages (shared/config.ts composes the features' settings).",
};
const PURE_MESSAGE = 'Pure domain code (engine, calculators, indicators) does no I/O: it imports only other pure code and trading-signals.';
/** Packages pure code may import: none with I/O (node: built-ins, ioredis, bullmq, undici, ws, express... are all refused). */
const NO_IMPURE_PACKAGE = { regex: '^(?!\\.|trading-signals$)', message: PURE_MESSAGE };

export default tseslint.config(
  // the typed client's generated types: tsc checks them and test/unit/generated-files.test.ts holds them to the document
  { ignores: ['node_modules/**', '.data/**', 'dist/**', 'bench/results/**', 'clients/typescript/src/openapi.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through shared/config.ts only.' },
      ],
      // prettier's print width (.prettierrc.json), for what prettier does not wrap: comments (strings are kept whole)
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // a file does one job: past 400 lines it holds more than one (counted as wc -l counts); not the tests nor the clients
    files: ['**/*.{ts,js,mjs,cjs}'],
    ignores: ['test/**', 'clients/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['shared/config.ts', 'workers/main.ts', 'ops/**/main.ts', 'ops/deploy/healthcheck.mjs', 'bench/**', 'test/helpers/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_REDIS_IN_API] }],
      // typescript-eslint's variant of the rule: it can let type-only imports through
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_CONNECTION_IN_API] }],
    },
  },
  {
    files: ['workers/**/*.ts', 'shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_OPS] }] },
  },
  {
    // core is the base every feature builds on: it names no feature (shared/config.ts composes their settings)
    files: ['shared/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_FEATURE_IN_CORE] }] },
  },
  {
    // relative imports stay in the pure folders (engine and calculators use each other)
    files: ['shared/engine/**/*.ts', 'shared/calculators/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NO_IMPURE_PACKAGE, { regex: '^\\.\\./(?!(engine|calculators)/[^/]+$)', message: PURE_MESSAGE }] },
      ],
    },
  },
  {
    // the engine's statistics (shared/engine/analytics): each other, the engine beside them and the calculators
    files: ['shared/engine/analytics/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_IMPURE_PACKAGE,
            { regex: '^\\.\\./(?!([^./][^/]*\\.js$|\\.\\./(engine|calculators)/[^/]+$))', message: PURE_MESSAGE },
            { regex: '^\\./.*/', message: PURE_MESSAGE },
          ],
        },
      ],
    },
  },
  {
    // the screener's pure half: the runner and the service beside it read and write Redis
    files: ['shared/screener/indicators.ts', 'shared/screener/score.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NO_IMPURE_PACKAGE, { regex: '^\\.(?!/(indicators|score)\\.js$)', message: PURE_MESSAGE }] },
      ],
    },
  },
  {
    // the typed client is published on its own: it imports its runtime and its generated types, nothing of the service
    files: ['clients/typescript/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./', message: 'clients/typescript/src imports only its own files and openapi-fetch: it ships alone.' },
          ],
        },
      ],
    },
  },
  {
    // mocha reads its config with require()
    files: ['.mocharc.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-restricted-properties': 'off' },
  },
);
