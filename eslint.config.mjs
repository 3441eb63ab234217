import { createRequire } from 'node:module';

// typescript-eslint is a test tool, installed in test/node_modules by test/support/tools.sh: resolved from there.
const tseslint = createRequire(new URL('./test/package.json', import.meta.url))('typescript-eslint');

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'dist/', '.venv/', 'test/e2e/.cache/', 'test/node_modules/', '**/*.js', '**/*.d.ts', 'docs/api/'] },
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
