/**
 * The yardstick of `npm run bench:synth`: a plain CDK app holding what a small storage server holds at its core (a
 * VPC, an instance, a data volume), compiled and run as cdk.json runs the project's app, so the ratio is the
 * project's own cost. Not part of the product.
 */
import { App, Size, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';

const app = new App();
const stack = new Stack(app, 'PlainApp');
const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2 });
const instance = new ec2.Instance(stack, 'Instance', {
  vpc,
  instanceType: new ec2.InstanceType('m4.2xlarge'),
  machineImage: ec2.MachineImage.latestAmazonLinux2023(),
  requireImdsv2: true,
});
const volume = new ec2.Volume(stack, 'Data', {
  availabilityZone: instance.instanceAvailabilityZone,
  size: Size.tebibytes(5),
  volumeType: ec2.EbsDeviceVolumeType.ST1,
  encrypted: true,
});
volume.grantAttachVolume(instance.role);
// No app.synth(), as `cdk init` writes an app and as the project's app does: the App synthesizes when the process
// is about to exit. A synth in the main module would also wait, before exit, for V8 to finish optimizing the
// template validation's WebAssembly in the background (about a second on 2 busy cores), which the app never does.
