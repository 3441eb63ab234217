import { Template } from 'aws-cdk-lib/assertions';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';
import { VARIANTS, appStack } from '../support/stacks';

// Quality gates over every variant the app is documented to synthesize.
describe.each(VARIANTS)('$name', ({ context }) => {
  test('cfn-lint reports no error, warning or informational finding', () => {
    const template = Template.fromStack(appStack(context)).toJSON();
    expect(cfnLint(template)).toEqual([]);
  });

  test('cdk-nag AwsSolutions reports no unacknowledged finding', () => {
    expect(nagFindings((app) => appStack(context, app))).toEqual([]);
  });
});
