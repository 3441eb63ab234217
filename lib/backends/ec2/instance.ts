import { Tags, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { SERVER_ID_TAG } from '../backend';
import type { Ec2NfsServerProps } from './props';
import type { Ec2ServerLayout } from './layout';

// The EC2 server's instance: its type, image, root volume and instance-store mappings, tagged with the server's
// identity, with the acknowledgements its image and disks call for.

/** The instance's surroundings, made before it. */
export interface InstanceParts {
  /** The facade's construct path: the instance's Name tag, which deployed servers carry. */
  readonly facadePath: string;
  /** The server's security group. */
  readonly securityGroup: ec2.ISecurityGroup;
  /** The instance role. */
  readonly role: iam.IRole;
  /** The stable interface, created before the instance and deleted after it. */
  readonly iface: ec2.CfnNetworkInterface;
}

/** Builds the instance `Instance` of the layout. */
export function serverInstance(scope: Construct, p: Ec2NfsServerProps, layout: Ec2ServerLayout, parts: InstanceParts): ec2.Instance {
  const { server: props } = p;
  const { facadePath, securityGroup, role, iface } = parts;
  const { identity, instanceType, store, encryptInstanceStore, terminationProtection } = layout;
  // Instance store is no attachment. An instance-store server attaches its root volume and, beside the primary
  // interface, its stable one, and nothing else, no EBS data volume. That is within the three attachments d3.8xlarge
  // and d3en.12xlarge allow "including the root volume", per the EC2 User Guide's storage optimized instances.
  const instance = new ec2.Instance(scope, 'Instance', {
    // The Name tag the instance had when the facade made it; CDK's default is the construct path.
    instanceName: `${facadePath}/Instance`,
    vpc: props.vpc,
    vpcSubnets: { subnets: [p.subnet] },
    instanceType,
    machineImage: layout.machineImage,
    securityGroup,
    role,
    keyPair: props.keyPair,
    placementGroup: props.placementGroup,
    requireImdsv2: true,
    detailedMonitoring: true,
    ebsOptimized: true,
    disableApiTermination: terminationProtection,
    propagateTagsToVolumeOnCreation: true,
    userDataCausesReplacement: false,
    blockDevices: [
      {
        deviceName: '/dev/xvda',
        volume: ec2.BlockDeviceVolume.ebs(16, { encrypted: true, kmsKey: props.kmsKey, volumeType: ec2.EbsDeviceVolumeType.GP3 }),
      },
      ...layout.instanceStoreDevices.map((deviceName, i) => ({ deviceName, volume: ec2.BlockDeviceVolume.ephemeral(i) })),
    ],
  });
  Tags.of(instance).add(SERVER_ID_TAG, identity);
  // Created before the instance and deleted after it, since an attached interface or volume cannot be deleted.
  instance.instance.node.addDependency(iface);
  if (props.machineImage === undefined && props.machineImageId === undefined) {
    Validations.of(instance).acknowledge({
      id: 'CloudFormation-Validate::E1152',
      reason: 'The image id is resolve:ssm:<public AL2023 parameter>, which EC2 resolves at launch (RunInstances accepts it); ' +
        'CloudFormation sees the same string at every update, so a new release never replaces the server.',
    });
    // cfn-lint knows only ami-... ids for ImageId, E1152; EC2 resolves resolve:ssm: itself at launch.
    instance.instance.addMetadata('cfn-lint', { config: { ignore_checks: ['E1152'] } });
  } else if (props.machineImageId !== undefined) {
    Validations.of(instance).acknowledge({
      id: 'CloudFormation-Validate::W9010',
      reason: 'machineImageId is a deliberate pin of one image (an AMI id belongs to one region); a parameter that ' +
        'CloudFormation re-resolves would replace the server at each new release.',
    });
  }
  // cdk-nag flags every instance-store mapping, since it has no EBS encryption setting. It is acknowledged only where
  // the disks are encrypted, by the server with LUKS2 or by the platform. An opt-out on d2 stays reported.
  if (store && (encryptInstanceStore || store.platformEncrypted)) {
    Validations.of(instance).acknowledge({
      id: 'AwsSolutions-EC26',
      reason: 'The root EBS volume is encrypted; the flagged mappings are ephemeral instance-store disks, which have no ' +
        'EBS encryption setting: ' + (encryptInstanceStore
        ? 'the server encrypts their striped volume with LUKS2 (dm-crypt, aes-xts-plain64) under a key kept on the encrypted root volume.'
        : `${instanceType.toString()}'s instance store is encrypted at rest by the platform (XTS-AES-256; EC2 User Guide, ` +
          'data protection: "The data on HDD instance store volumes on H1, D3, and D3en instances is encrypted").'),
    });
  }
  if (!terminationProtection) {
    Validations.of(instance).acknowledge({
      id: 'AwsSolutions-EC29',
      reason: store
        ? 'The stack\'s termination protection refuses cdk destroy of this instance-store server unless deleteDataOnDestroy ' +
          'asks for the instance and its data to go, a destroy EC2 termination protection would fail half-way; ' +
          'terminationProtection is a prop for sites that want EC2\'s own protection too.'
        : 'The data lives on separate EBS volumes, not on the instance (kept on update and deletion, RetainExceptOnCreate, unless deleteDataOnDestroy); termination protection is a prop (terminationProtection) for sites that want it.',
    });
  }
  return instance;
}
