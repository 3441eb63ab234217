/** `StorageServer.fileSystemId`: the FSx file system's id on either FSx backend, as its resource's Ref gives it. */
import { Stack } from 'aws-cdk-lib';
import type { StorageServerProps } from '../../lib/storage-server/props';
import { serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';

test.each<[string, Partial<StorageServerProps>]>([
  ['fsx-lustre', { backend: Backend.FSX_LUSTRE, capacityTiB: 12 }],
  ['fsx-openzfs', { backend: Backend.FSX_OPENZFS, capacityTiB: 1 }],
])('%s: the id is the Ref of the stack\'s one AWS::FSx::FileSystem', (_backend, props) => {
  const { stack, server, template } = serverStack(props);
  const [logicalId] = Object.keys(template.findResources('AWS::FSx::FileSystem'));
  expect(Stack.of(stack).resolve(server.fileSystemId)).toEqual({ Ref: logicalId });
});

test('an NFS server has none', () => {
  expect(serverStack({ backend: Backend.EBS, capacityTiB: 1 }).server.fileSystemId).toBeUndefined();
});
