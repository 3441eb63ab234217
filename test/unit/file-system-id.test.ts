/** `StorageServer.fileSystemId`: the FSx file system's id on either FSx backend, as its resource's Ref gives it. */
import { Stack } from 'aws-cdk-lib';
import type { StorageServerProps } from '../../lib/storage-server/props';
import { serverStack } from '../support/stacks';

test.each<[string, Partial<StorageServerProps>]>([
  ['fsx-lustre', { backend: 'fsx-lustre', capacityTiB: 12 }],
  ['fsx-openzfs', { backend: 'fsx-openzfs', capacityTiB: 1 }],
])('%s: the id is the Ref of the stack\'s one AWS::FSx::FileSystem', (_backend, props) => {
  const { stack, server, template } = serverStack(props);
  const [logicalId] = Object.keys(template.findResources('AWS::FSx::FileSystem'));
  expect(Stack.of(stack).resolve(server.fileSystemId)).toEqual({ Ref: logicalId });
});

test('an NFS server has none', () => {
  expect(serverStack({ backend: 'ebs', capacityTiB: 1 }).server.fileSystemId).toBeUndefined();
});
