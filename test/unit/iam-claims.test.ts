/**
 * What the stack's principals may and may not do, decided by an IAM policy simulator over the synthesized template, by
 * test/support/iam-eval.ts, not by matching policy strings. One row is one claim, and each runs for every backend it
 * applies to. This table is the authority on the stack's permissions.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { ENV, OTHER_ACCOUNT, TemplatePolicies, type IamRequest } from '../support/iam-eval';
import { appStack } from '../support/stacks';

type Backend = 'ebs' | 'instance-store' | 'fsx-lustre' | 'fsx-openzfs';
const OPENZFS: Backend[] = ['fsx-openzfs'];
const ALL: Backend[] = ['ebs', 'instance-store', 'fsx-lustre'];
const EC2: Backend[] = ['ebs', 'instance-store'];

/** The app's stack per backend, with the defaults: cluster `cluster`, server `storage1`, prefix `/storage-server`. */
const CONTEXT: Record<Backend, Record<string, string>> = {
  'ebs': { backend: 'ebs', capacityTiB: '3' },
  'instance-store': { backend: 'instance-store', capacityTiB: '3' },
  'fsx-lustre': { backend: 'fsx-lustre', capacityTiB: '12' },
  'fsx-openzfs': { backend: 'fsx-openzfs', capacityTiB: '1' },
};
const STACK = 'StorageServer';

/** What the claims name in one backend's template. */
class Subject {
  readonly t: TemplatePolicies;
  constructor(readonly backend: Backend) {
    const stack = appStack(CONTEXT[backend]);
    this.t = new TemplatePolicies(Template.fromStack(stack).toJSON(), STACK);
  }

  get topic(): string { return this.t.ref(this.t.logicalId('AWS::SNS::Topic', /AlarmTopic/)); }
  /** The key the alarm topic is encrypted with, read from the topic itself. */
  get topicKey(): string {
    return this.t.properties(this.t.logicalId('AWS::SNS::Topic', /AlarmTopic/)).KmsMasterKeyId as string;
  }
  /** The ARN of one of the stack's alarms; CloudFormation names them `<stack>-<logical id>-<suffix>`. */
  get alarm(): string {
    return this.t.arn('cloudwatch', `alarm:${STACK}-${this.t.logicalId('AWS::CloudWatch::Alarm', /FileSystemUsedCritical/)}-1A2B3C4D5E6F`);
  }
  get serverRole(): string { return this.t.logicalId('AWS::IAM::Role', /^StorageServerRole/); }
  get registrationRole(): string { return this.t.logicalId('AWS::IAM::Role', /RegistrationProviderRole/); }
  get instanceArn(): string { return this.t.arn('ec2', `instance/${this.t.ref(this.t.logicalId('AWS::EC2::Instance'))}`); }
  get interfaceArn(): string {
    return this.t.arn('ec2', `network-interface/${this.t.ref(this.t.logicalId('AWS::EC2::NetworkInterface', /Interface/))}`);
  }
  get volumeArn(): string { return this.t.arn('ec2', `volume/${this.t.ref(this.t.logicalId('AWS::EC2::Volume', /DataVolume0/))}`); }
  get settingsDocument(): string {
    return this.t.arn('ssm', `document/${this.t.ref(this.t.logicalId('AWS::SSM::Document', /SettingsDocument/))}`);
  }
  /** The server's own identity tag, as its instances, volumes and interface carry it. */
  get identityTag(): Record<string, string> {
    return this.t.resourceTagContext(this.t.logicalId('AWS::EC2::Instance'));
  }
  parameter(name: string): string { return this.t.arn('ssm', `parameter${name}`); }

  /** A request by the server's instance role, from the server's own instance. */
  asServer(action: string, resources: IamRequest['resources']): IamRequest {
    return {
      principal: this.t.roleArn(this.serverRole),
      identityPolicies: this.t.identityPolicies(this.serverRole),
      action,
      resources,
      context: { 'ec2:SourceInstanceARN': this.instanceArn },
    };
  }
  /** An instance resource with its id, the `ec2:InstanceID` key, and tags. */
  instance(arn: string, tags: Record<string, string>): { arn: string; context: Record<string, string> } {
    return { arn, context: { 'ec2:InstanceID': arn.split('/').pop() ?? '', ...tags } };
  }
  asRegistration(action: string, resources: string[]): IamRequest {
    return {
      principal: this.t.roleArn(this.registrationRole),
      identityPolicies: this.t.identityPolicies(this.registrationRole),
      action,
      resources,
    };
  }
  /** The FSx for OpenZFS file system's root volume, `volume/<file system id>/<volume id>`. */
  get rootVolumeArn(): string {
    const fs = this.t.logicalId('AWS::FSx::FileSystem');
    return this.t.arn('fsx', `volume/${this.t.ref(fs)}/${this.t.getAtt(fs, 'RootVolumeId')}`);
  }
  /** A request by the stack's FSx for OpenZFS export function, lambda/openzfs-export. */
  asExport(action: string, resources: string[]): IamRequest {
    const role = this.t.logicalId('AWS::IAM::Role', /^StorageServerOpenZfsExportProviderRole/);
    return { principal: this.t.roleArn(role), identityPolicies: this.t.identityPolicies(role), action, resources };
  }
  /** A request by the stack's update-guard function. */
  asGuard(action: string, resources: string[]): IamRequest {
    const role = this.t.logicalId('AWS::IAM::Role', /^StorageServerUpdateGuardProviderRole/);
    return { principal: this.t.roleArn(role), identityPolicies: this.t.identityPolicies(role), action, resources };
  }
  /** A client node whose role holds the client-mount read policy alone, the stack's `ClientMountPolicyArn`. */
  asClient(action: string, resources: string[]): IamRequest {
    return {
      principal: `arn:${ENV.partition}:iam::${ENV.account}:role/ClientNode`,
      identityPolicies: this.t.managedPolicyDocument(this.t.logicalId('AWS::IAM::ManagedPolicy', /ClientMountReadPolicy/)),
      action,
      resources,
    };
  }
  /** CloudWatch acting for an alarm of `account`, the stack's own by default. */
  asAlarms(action: string, resource: string, account: string = ENV.account, secure = true): IamRequest {
    return {
      principal: 'cloudwatch.amazonaws.com',
      action,
      resources: [resource],
      context: {
        'aws:SourceAccount': account,
        'aws:SourceArn': account === ENV.account ? this.alarm : `arn:${ENV.partition}:cloudwatch:${ENV.region}:${account}:alarm:theirs`,
        'aws:SecureTransport': String(secure),
      },
    };
  }
}

/** A principal of another account whose own account lets it do anything: only our resource policies can stop it. */
function outsider(action: string, resource: string): IamRequest {
  return {
    principal: `arn:${ENV.partition}:iam::${OTHER_ACCOUNT}:role/Outsider`,
    identityPolicies: [{ name: 'AllowAll', policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] } }],
    action,
    resources: [resource],
    context: { 'aws:SecureTransport': 'true' },
  };
}

const OWN_RING = '/storage-server/cluster/ring/storage1';
const OWN_MOUNT = '/storage-server/cluster/storage/storage1/mount';
const OTHER_RING = '/storage-server/cluster/ring/storage2';
const OTHER_MOUNT = '/storage-server/cluster/storage/storage2/mount';
const OTHER_CLUSTER_RING = '/storage-server/hpc2/ring/storage1';
const FOREIGN_INSTANCE = `arn:${ENV.partition}:ec2:${ENV.region}:${ENV.account}:instance/i-0fedcba9876543210`;
const FOREIGN_VOLUME = `arn:${ENV.partition}:ec2:${ENV.region}:${ENV.account}:volume/vol-0fedcba9876543210`;
const FOREIGN_INTERFACE = `arn:${ENV.partition}:ec2:${ENV.region}:${ENV.account}:network-interface/eni-0fedcba9876543210`;
const OTHER_SERVER_TAG = { 'aws:ResourceTag/storage-server:id': `${STACK}/storage2` };

interface Claim {
  readonly claim: string;
  readonly allowed: boolean;
  readonly backends: Backend[];
  readonly request: (s: Subject) => IamRequest;
}

const CLAIMS: Claim[] = [
  // The update guard reads what its root stack and nested stacks hold: heldResources in lambda/update-guard/aws.ts.
  { claim: 'the update guard may list the resources of its own stack', allowed: true, backends: [...ALL, ...OPENZFS],
    request: (s) => s.asGuard('cloudformation:ListStackResources', [s.t.arn('cloudformation', `stack/${STACK}/0a1b2c3d-0000-4000-8000-000000000001`)]) },
  { claim: 'the update guard may list the resources of a nested stack of its stack', allowed: true, backends: [...ALL, ...OPENZFS],
    request: (s) => s.asGuard('cloudformation:ListStackResources', [s.t.arn('cloudformation', `stack/${STACK}-DataNestedStackResource1A2B3C4D-0EF12AB34CD5/0a1b2c3d-0000-4000-8000-000000000002`)]) },
  { claim: 'the update guard may not list the resources of another stack', allowed: false, backends: [...ALL, ...OPENZFS],
    request: (s) => s.asGuard('cloudformation:ListStackResources', [s.t.arn('cloudformation', 'stack/TeamDatabase/0a1b2c3d-0000-4000-8000-000000000003')]) },
  { claim: 'the update guard may not change its stack', allowed: false, backends: [...ALL, ...OPENZFS],
    request: (s) => s.asGuard('cloudformation:UpdateStack', [s.t.arn('cloudformation', `stack/${STACK}/0a1b2c3d-0000-4000-8000-000000000001`)]) },
  // FSx for OpenZFS: the root volume's export, set by UpdateVolume and awaited, in
  // lib/backends/openzfs/export-resource.ts.
  { claim: "the export function may set the root volume's exports (fsx:UpdateVolume on it)", allowed: true, backends: OPENZFS,
    request: (s) => s.asExport('fsx:UpdateVolume', [s.rootVolumeArn]) },
  { claim: 'the export function may not update another volume of the file system', allowed: false, backends: OPENZFS,
    request: (s) => s.asExport('fsx:UpdateVolume', [s.rootVolumeArn.replace(/[^/]+$/, 'fsvol-0123456789abcdef0')]) },
  { claim: "the export function may not update another file system's volume", allowed: false, backends: OPENZFS,
    request: (s) => s.asExport('fsx:UpdateVolume', [s.rootVolumeArn.replace(/volume\/[^/]+/, 'volume/fs-0123456789abcdef0')]) },
  { claim: 'the export function may not delete the root volume', allowed: false, backends: OPENZFS,
    request: (s) => s.asExport('fsx:DeleteVolume', [s.rootVolumeArn]) },
  { claim: 'the export function may not update the file system itself', allowed: false, backends: OPENZFS,
    request: (s) => s.asExport('fsx:UpdateFileSystem', [s.rootVolumeArn.replace(/volume\/([^/]+)\/.*$/, 'file-system/$1')]) },
  { claim: 'the export function may read the volumes, to see the export in effect (fsx:DescribeVolumes)', allowed: true, backends: OPENZFS,
    request: (s) => s.asExport('fsx:DescribeVolumes', ['*']) },
  { claim: 'the export function may not read the file systems\' backups', allowed: false, backends: OPENZFS,
    request: (s) => s.asExport('fsx:DescribeBackups', ['*']) },
  // The alarm topic and its key.
  { claim: "CloudWatch, for this stack's alarms, may publish to the alarm topic", allowed: true, backends: ALL,
    request: (s) => s.asAlarms('sns:Publish', s.topic) },
  { claim: "CloudWatch, for this stack's alarms, may make data keys with the topic's key", allowed: true, backends: ALL,
    request: (s) => s.asAlarms('kms:GenerateDataKey', s.topicKey) },
  { claim: "CloudWatch, for this stack's alarms, may decrypt with the topic's key", allowed: true, backends: ALL,
    request: (s) => s.asAlarms('kms:Decrypt', s.topicKey) },
  { claim: "CloudWatch, for another account's alarms, may not publish to the alarm topic", allowed: false, backends: ALL,
    request: (s) => s.asAlarms('sns:Publish', s.topic, OTHER_ACCOUNT) },
  { claim: "CloudWatch, for another account's alarms, may not use the topic's key", allowed: false, backends: ALL,
    request: (s) => s.asAlarms('kms:GenerateDataKey', s.topicKey, OTHER_ACCOUNT) },
  { claim: 'nobody may publish to the alarm topic without TLS', allowed: false, backends: ALL,
    request: (s) => s.asAlarms('sns:Publish', s.topic, ENV.account, false) },
  { claim: 'a principal outside the account may not publish to the alarm topic', allowed: false, backends: ALL,
    request: (s) => outsider('sns:Publish', s.topic) },
  { claim: "a principal outside the account may not use the topic's key", allowed: false, backends: ALL,
    request: (s) => outsider('kms:Decrypt', s.topicKey) },

  // The server's instance role, on the EC2 backends, since FSx has no instance. Its own metrics only, per
  // lib/server-metrics.ts: one server writing another's would silence or trip its alarms.
  { claim: "the server may publish metrics in its own namespace", allowed: true, backends: EC2,
    request: (s) => s.asServer('cloudwatch:PutMetricData', [{ arn: '*', context: { 'cloudwatch:namespace': 'StorageServer/cluster/storage1' } }]) },
  { claim: "the server may not publish metrics in another server's namespace", allowed: false, backends: EC2,
    request: (s) => s.asServer('cloudwatch:PutMetricData', [{ arn: '*', context: { 'cloudwatch:namespace': 'StorageServer/cluster/storage2' } }]) },
  { claim: 'the server may not publish metrics in the namespace every server once shared', allowed: false, backends: EC2,
    request: (s) => s.asServer('cloudwatch:PutMetricData', [{ arn: '*', context: { 'cloudwatch:namespace': 'StorageServer' } }]) },
  { claim: 'the server may read its own mount record', allowed: true, backends: EC2,
    request: (s) => s.asServer('ssm:GetParameter', [s.parameter(OWN_MOUNT)]) },
  { claim: "the server may not read another server's mount record", allowed: false, backends: EC2,
    request: (s) => s.asServer('ssm:GetParameter', [s.parameter(OTHER_MOUNT)]) },
  { claim: "the server may not read the cluster's ring records", allowed: false, backends: EC2,
    request: (s) => s.asServer('ssm:GetParameter', [s.parameter(OTHER_RING)]) },
  { claim: 'the server may not read parameters outside its own path', allowed: false, backends: EC2,
    request: (s) => s.asServer('ssm:GetParameters', [s.parameter('/prod/database/password')]) },
  { claim: 'the server may read its own settings document', allowed: true, backends: EC2,
    request: (s) => s.asServer('ssm:GetDocument', [s.settingsDocument]) },
  { claim: "the server may not read the account's other documents", allowed: false, backends: EC2,
    request: (s) => s.asServer('ssm:GetDocument', [s.t.arn('ssm', 'document/TeamDatabaseRestore')]) },
  { claim: "the server may not read the cluster's client-mount document", allowed: false, backends: EC2,
    request: (s) => s.asServer('ssm:DescribeDocument', [s.t.arn('ssm', `document/${s.t.ref(s.t.logicalId('AWS::SSM::Document', /ClientMountDocument/))}`)]) },
  { claim: 'the server may attach its own volume to itself', allowed: true, backends: ['ebs'],
    request: (s) => s.asServer('ec2:AttachVolume', [s.instance(s.instanceArn, s.identityTag), s.volumeArn]) },
  { claim: 'the server may not attach its own volume to another instance', allowed: false, backends: ['ebs'],
    request: (s) => s.asServer('ec2:AttachVolume', [s.instance(FOREIGN_INSTANCE, OTHER_SERVER_TAG), s.volumeArn]) },
  { claim: "the server may not attach another's volume to itself", allowed: false, backends: ['ebs'],
    request: (s) => s.asServer('ec2:AttachVolume', [s.instance(s.instanceArn, s.identityTag), FOREIGN_VOLUME]) },
  { claim: 'the server may attach its own interface to itself', allowed: true, backends: EC2,
    request: (s) => s.asServer('ec2:AttachNetworkInterface', [s.instance(s.instanceArn, s.identityTag), s.interfaceArn]) },
  { claim: 'the server may not attach its own interface to another instance', allowed: false, backends: EC2,
    request: (s) => s.asServer('ec2:AttachNetworkInterface', [s.instance(FOREIGN_INSTANCE, OTHER_SERVER_TAG), s.interfaceArn]) },
  { claim: "the server may not attach another's interface to itself", allowed: false, backends: EC2,
    request: (s) => s.asServer('ec2:AttachNetworkInterface', [s.instance(s.instanceArn, s.identityTag), FOREIGN_INTERFACE]) },
  { claim: 'the server may take its volume from a previous instance of the same server', allowed: true, backends: ['ebs'],
    request: (s) => s.asServer('ec2:DetachVolume', [s.instance(FOREIGN_INSTANCE, s.identityTag), s.volumeArn]) },
  { claim: 'the server may stop a previous instance of the same server', allowed: true, backends: EC2,
    request: (s) => s.asServer('ec2:StopInstances', [s.instance(FOREIGN_INSTANCE, s.identityTag)]) },
  { claim: "the server may not stop another server's instance", allowed: false, backends: EC2,
    request: (s) => s.asServer('ec2:StopInstances', [s.instance(FOREIGN_INSTANCE, OTHER_SERVER_TAG)]) },
  { claim: "the server may not detach another server's interface", allowed: false, backends: EC2,
    request: (s) => s.asServer('ec2:DetachNetworkInterface', [s.instance(FOREIGN_INSTANCE, OTHER_SERVER_TAG), FOREIGN_INTERFACE]) },
  // The registration function: one per stack, all backends.
  { claim: "the registration may write its server's ring record", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter(OWN_RING)]) },
  { claim: "the registration may write its server's mount record", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter(OWN_MOUNT)]) },
  { claim: "the registration may read its server's ring record (who owns it)", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:GetParameter', [s.parameter(OWN_RING)]) },
  { claim: "the registration may read its server's mount record (who wrote it)", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:GetParameter', [s.parameter(OWN_MOUNT)]) },
  { claim: "the registration may not read another server's mount record", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:GetParameter', [s.parameter(OTHER_MOUNT)]) },
  { claim: "the registration may delete its server's records", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:DeleteParameters', [s.parameter(OWN_RING), s.parameter(OWN_MOUNT)]) },
  { claim: "the registration may not write another server's ring record", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter(OTHER_RING)]) },
  { claim: "the registration may not write another server's mount record", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter(OTHER_MOUNT)]) },
  { claim: "the registration may not delete another server's records", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:DeleteParameters', [s.parameter(OTHER_RING)]) },
  { claim: "the registration may not write another cluster's records", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter(OTHER_CLUSTER_RING)]) },
  { claim: "the registration may write its server's tombstone", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter('/storage-server/cluster/removed/storage1')]) },
  { claim: "the registration may delete its server's tombstone", allowed: true, backends: ALL,
    request: (s) => s.asRegistration('ssm:DeleteParameters', [s.parameter('/storage-server/cluster/removed/storage1')]) },
  { claim: "the registration may not write another server's tombstone", allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter('/storage-server/cluster/removed/other')]) },
  { claim: 'the registration may not write parameters outside the prefix', allowed: false, backends: ALL,
    request: (s) => s.asRegistration('ssm:PutParameter', [s.parameter('/prod/database/password')]) },
  // Client nodes, with the client-mount read policy, on all backends.
  { claim: "a client may list the cluster's mount records", allowed: true, backends: ALL,
    request: (s) => s.asClient('ssm:GetParametersByPath', [s.parameter('/storage-server/cluster/storage')]) },
  { claim: "a client may read every server's mount record of its cluster", allowed: true, backends: ALL,
    request: (s) => s.asClient('ssm:GetParameters', [s.parameter(OWN_MOUNT), s.parameter(OTHER_MOUNT)]) },
  { claim: 'a client may not write a mount record', allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:PutParameter', [s.parameter(OWN_MOUNT)]) },
  { claim: 'a client may not delete a mount record', allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:DeleteParameter', [s.parameter(OWN_MOUNT)]) },
  { claim: 'a client may not relabel a mount record', allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:LabelParameterVersion', [s.parameter(OWN_MOUNT)]) },
  { claim: "a client may not read the cluster's ring records", allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:GetParameter', [s.parameter(OWN_RING)]) },
  { claim: "a client may not read another cluster's mount records", allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:GetParameter', [s.parameter('/storage-server/hpc2/storage/storage1/mount')]) },
  { claim: "a client may read its cluster's tombstones by name", allowed: true, backends: ALL,
    request: (s) => s.asClient('ssm:GetParameters', [s.parameter('/storage-server/cluster/removed/storage1'),
      s.parameter('/storage-server/cluster/removed/storage2')]) },
  { claim: 'a client may not write a tombstone', allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:PutParameter', [s.parameter('/storage-server/cluster/removed/storage1')]) },
  { claim: "a client may not read another cluster's tombstones", allowed: false, backends: ALL,
    request: (s) => s.asClient('ssm:GetParameters', [s.parameter('/storage-server/hpc2/removed/storage1')]) },

  // Principals outside the account.
  { claim: 'a principal outside the account may not read the mount records', allowed: false, backends: ALL,
    request: (s) => outsider('ssm:GetParameter', s.parameter(OWN_MOUNT)) },
  { claim: 'a principal outside the account may not read the ring records', allowed: false, backends: ALL,
    request: (s) => outsider('ssm:GetParameter', s.parameter(OWN_RING)) },
  { claim: 'a principal outside the account may not write the records', allowed: false, backends: ALL,
    request: (s) => outsider('ssm:PutParameter', s.parameter(OWN_MOUNT)) },
];

const ROWS = CLAIMS.flatMap((c) => c.backends.map((backend) => ({ ...c, backend })));
const subjects = new Map<Backend, Subject>();
function subject(backend: Backend): Subject {
  let s = subjects.get(backend);
  if (!s) subjects.set(backend, (s = new Subject(backend)));
  return s;
}

test.each(ROWS)('$claim [$backend]', async ({ allowed, backend, request }) => {
  // GIVEN the app's stack of the backend
  const s = subject(backend);
  // WHEN the simulator decides the request
  const req = request(s);
  const decision = await s.t.decide(req);
  // THEN it is what the claim says, and a failure names the request
  const expected = allowed ? 'Allowed' : 'denied (ExplicitlyDenied or ImplicitlyDenied)';
  const ok = allowed ? decision === 'Allowed' : decision !== 'Allowed';
  if (!ok) {
    throw new Error(`expected ${expected}, the simulator says ${decision}: ${req.principal} ${req.action} on ` +
      `${JSON.stringify(req.resources)} with ${JSON.stringify(req.context ?? {})}`);
  }
}, 120_000);

describe('the evaluator refuses what it cannot evaluate, naming it', () => {
  test('an intrinsic function it does not resolve', () => {
    const t = new TemplatePolicies({ Resources: { R: { Type: 'AWS::IAM::Role', Properties: { X: { 'Fn::If': ['C', 'a', 'b'] } } } } }, STACK);
    expect(() => t.properties('R')).toThrow('iam-eval cannot resolve Fn::If (["C","a","b"])');
  });

  test('an AWS managed policy it holds no copy of', () => {
    const arn = 'arn:aws:iam::aws:policy/AdministratorAccess';
    const t = new TemplatePolicies({ Resources: { R: { Type: 'AWS::IAM::Role', Properties: { ManagedPolicyArns: [arn] } } } }, STACK);
    expect(() => t.identityPolicies('R')).toThrow(`managed policy ${arn} is neither in the template nor among the AWS managed policies`);
  });

  test('a request the simulator refuses: an action that does not exist', async () => {
    const t = new TemplatePolicies({ Resources: {} }, STACK);
    const topic = t.arn('sns', 'alarms');
    await expect(t.decide({ principal: 'cloudwatch.amazonaws.com', action: 'sns:Publishh', resources: [topic] }))
      .rejects.toThrow(`iam-simulate refused sns:Publishh on ${topic} by cloudwatch.amazonaws.com`);
  });
});
