import { Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { instanceTypeSpec, knownInstanceType } from '../../sizing';
import type { StorageServerProps } from '../../storage-server/props';

// The EC2 server's machine image: Amazon Linux 2023 for the instance type's architecture, resolved by EC2 at
// launch, or the image the props name.

/** The public parameter EC2 resolves at launch for the default image: the latest Amazon Linux 2023 on x86_64. */
export const DEFAULT_IMAGE_PARAMETER = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64';
/**
 * The same for an arm64, AWS Graviton, instance type: the parameter that aws-cdk-lib's
 * `MachineImage.latestAmazonLinux2023` names for `InstanceArchitecture.ARM_64`, in
 * aws-ec2/lib/machine-image/amazon-linux-2023.ts.
 */
export const DEFAULT_ARM64_IMAGE_PARAMETER = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64';

/**
 * The server's image. The default is `resolve:ssm:<parameter>` in the template: EC2 resolves it when it launches
 * the instance, and CloudFormation sees the same string at every later update, so a new Amazon Linux release
 * never replaces the server. `machineImageId` is the deliberate change.
 */
export function serverImage(props: StorageServerProps, instanceType: ec2.InstanceType): ec2.IMachineImage {
  if (props.machineImageId !== undefined && props.machineImage !== undefined) {
    throw new Error('machineImageId and machineImage are mutually exclusive: give one of them.');
  }
  if (props.machineImage) return props.machineImage;
  const id = props.machineImageId;
  if (id === undefined) {
    return ec2.MachineImage.resolveSsmParameterAtLaunch(architectureOf(instanceType) === 'arm64' ? DEFAULT_ARM64_IMAGE_PARAMETER : DEFAULT_IMAGE_PARAMETER);
  }
  if (!Token.isUnresolved(id) && !/^ami-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) {
    throw new Error(`machineImageId must be an image id such as 'ami-0123456789abcdef0', got '${id}'.`);
  }
  return { getImage: () => ({ imageId: id, osType: ec2.OperatingSystemType.LINUX, userData: ec2.UserData.forLinux() }) };
}

/**
 * The image architecture of an instance type: the catalogue's `arch` for a type it knows, else aws-cdk-lib's reading of
 * the type's name. A Graviton family carries a `g` after its generation, such as m7g or c6gn. An x86_64 image does not
 * boot on Graviton, nor an arm64 one on x86_64.
 */
function architectureOf(instanceType: ec2.InstanceType): 'x86_64' | 'arm64' {
  const name = instanceType.toString();
  if (knownInstanceType(name)) return instanceTypeSpec(name).arch;
  return instanceType.architecture === ec2.InstanceArchitecture.ARM_64 ? 'arm64' : 'x86_64';
}
