import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * Lets `grantee` read one server's mount record, `mountParameterName`, as client-mount.sh with `--server` reads it: by
 * its path and by name, and the server's tombstone, `<prefix>/<cluster>/removed/<server>`, by name. No wildcard: the
 * path is the server's own, `<prefix>/<cluster>/storage/<server>`.
 */
export function grantServerMountRead(scope: Construct, grantee: iam.IGrantable, mountParameterName: string): iam.Grant {
  const serverPath = mountParameterName.slice(0, mountParameterName.lastIndexOf('/'));
  const storage = serverPath.slice(0, serverPath.lastIndexOf('/'));
  const tombstone = `${storage.slice(0, storage.lastIndexOf('/'))}/removed/${serverPath.slice(serverPath.lastIndexOf('/') + 1)}`;
  const arn = (name: string) => Stack.of(scope).formatArn({
    service: 'ssm',
    resource: 'parameter',
    resourceName: name.slice(1),
    arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
  });
  return iam.Grant.addToPrincipal({
    grantee,
    actions: ['ssm:GetParametersByPath', 'ssm:GetParameter', 'ssm:GetParameters'],
    resourceArns: [arn(serverPath), arn(mountParameterName), arn(tombstone)],
  });
}
