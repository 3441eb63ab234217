import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'dist/', '.venv/', 'test/e2e/.cache/', '**/*.js', '**/*.d.ts', 'docs/api/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // A planner's descriptor loads its construct's module only when the facade asks for the plugin, so that
    // `npm run plan` loads no CDK (CONTRIBUTING.md, "Adding a backend").
    files: ['lib/sizing/ec2-sizing.ts', 'lib/backends/*/sizing.ts'],
    rules: { '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\.\\./'] }] },
  },
);
