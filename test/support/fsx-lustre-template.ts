// Readers of an FSx for Lustre server's template, for the fsx-lustre backend's tests.
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';

export const fileSystemOf = (t: Template) => Object.values(t.findResources('AWS::FSx::FileSystem'));

/**
 * An AwsCustomResource's Create or Update property: a JSON string, or Fn::Join of its parts when it holds a reference.
 */
export function sdkCall(value: unknown): { parameters: { LustreConfiguration: { RootSquashConfiguration: Record<string, unknown> } } } & Record<string, unknown> {
  // References become placeholders, put back as { Ref } objects so the call can be compared whole.
  const text = typeof value === 'string' ? value : (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1]
    .map((part) => (typeof part === 'string' ? part : `@@${JSON.stringify(part)}@@`)).join('');
  return JSON.parse(text.replace(/"?@@(.*?)@@"?/g, (_, ref: string) => ref));
}

/** Every IAM policy statement of the template that grants `action`. */
export function policyStatementsWith(t: Template, action: string): unknown[] {
  return Object.values(t.findResources('AWS::IAM::Policy'))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
    .filter((s) => [s.Action].flat().includes(action));
}

/** A server with its own KMS key, in a bare stack. */
export function serverStackWithKey(props: Partial<StorageServerProps>): { template: Template } {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const key = new kms.Key(stack, 'Key', { enableKeyRotation: true, removalPolicy: RemovalPolicy.RETAIN });
  new StorageServer(stack, 'Storage', { vpc, kmsKey: key, ...props });
  return { template: Template.fromStack(stack) };
}
