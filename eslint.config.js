import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'dist/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through shared/core/config.ts only.' }],
    },
  },
  {
    files: ['shared/core/config.ts', 'workers/main.ts', 'ops/**/main.ts', 'bench/**', 'test/helpers/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // mocha reads its config with require()
    files: ['.mocharc.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-restricted-properties': 'off' },
  },
);
