// Readers of a StorageServer's template that its tests share: the settings it applies, the guard's record, cdk-nag's
// EC26 findings.
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';
import { applyRunCommand } from './apply';
import { nagFindings } from './nag';

/** The shell step of the server's apply document, the settings it applies, joined to one string with tokens as JSON. */
export function applyCommandOf(template: Template): string {
  return JSON.stringify(applyRunCommand(template));
}

/** The update guard's recorded properties. */
export function guardOf(template: Template): Record<string, unknown> {
  return Object.values(template.findResources('Custom::StorageServerUpdateGuard'))[0].Properties;
}

/** The resources cdk-nag reports under AwsSolutions-EC26, unencrypted EBS, for a server with these props. */
export function ec26(props: Partial<StorageServerProps>): string[] {
  return nagFindings((app) => {
    const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    new StorageServer(stack, 'Storage', { vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 }), ...props });
  }).filter((f) => f.ruleId === 'AwsSolutions-EC26').map((f) => f.resource);
}

/** The one settings line `KEY='value'` the server applies, from the apply document. */
export function settingOf(template: Template, key: string): string {
  const line = applyCommandOf(template)
    .split('\\n')
    .find((l) => l.startsWith(`${key}=`));
  expect(line).toBeDefined();
  return line!;
}
