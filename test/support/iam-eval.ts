/**
 * Evaluates a synthesized template's IAM policies with an IAM policy simulator instead of matching their strings. The
 * simulator is @cloud-copilot/iam-simulate, AGPL-3.0, a test-only devDependency that is never shipped.
 *
 * The template is resolved for one fixed account, region and partition, {@link ENV}. Every Ref, Fn::GetAtt, Fn::Join,
 * Fn::Sub, Fn::Select and Fn::GetAZs the policies use becomes a concrete string, each resource getting a stable fake
 * physical id derived from its logical id. Identity policies are collected per role: AWS::IAM::Policy,
 * AWS::IAM::ManagedPolicy, the role's inline policies and its managed policy ARNs. Resource policies come from
 * AWS::SNS::TopicPolicy and the KeyPolicy of AWS::KMS::Key. The simulator makes the decision; nothing here evaluates a
 * statement.
 */
import { createHash } from 'node:crypto';
import { runSimulation, type Simulation, type SimulationIdentityPolicy } from '@cloud-copilot/iam-simulate';

/** The account, region and partition every template is resolved for. */
export const ENV = {
  account: '123456789012',
  region: 'us-east-1',
  partition: 'aws',
  urlSuffix: 'amazonaws.com',
} as const;

/** An account that is not {@link ENV}'s: the outsider of the claims. */
export const OTHER_ACCOUNT = '210987654321';

/**
 * The AWS managed policies the stacks attach, as the AWS Managed Policy Reference publishes them, each at its default
 * version when this copy was taken. A role attached to a managed policy not listed here cannot be evaluated, and says
 * so.
 */
const AWS_MANAGED_POLICIES: Record<string, object> = {
  // v2, the default, edited 2019-05-23.
  AmazonSSMManagedInstanceCore: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ssm:DescribeAssociation',
          'ssm:GetDeployablePatchSnapshotForInstance',
          'ssm:GetDocument',
          'ssm:DescribeDocument',
          'ssm:GetManifest',
          'ssm:GetParameter',
          'ssm:GetParameters',
          'ssm:ListAssociations',
          'ssm:ListInstanceAssociations',
          'ssm:PutInventory',
          'ssm:PutComplianceItems',
          'ssm:PutConfigurePackageResult',
          'ssm:UpdateAssociationStatus',
          'ssm:UpdateInstanceAssociationStatus',
          'ssm:UpdateInstanceInformation',
        ],
        Resource: '*',
      },
      {
        Effect: 'Allow',
        Action: ['ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel'],
        Resource: '*',
      },
      {
        Effect: 'Allow',
        Action: [
          'ec2messages:AcknowledgeMessage',
          'ec2messages:DeleteMessage',
          'ec2messages:FailMessage',
          'ec2messages:GetEndpoint',
          'ec2messages:GetMessages',
          'ec2messages:SendReply',
        ],
        Resource: '*',
      },
    ],
  },
};

/** The simulator's verdict. */
export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

/** One request to decide. */
export interface IamRequest {
  /** The caller: a role's ARN, {@link TemplatePolicies.roleArn}, a service principal, or another account's ARN. */
  readonly principal: string;
  /** The caller's identity policies; none for a service principal or an outsider. */
  readonly identityPolicies?: SimulationIdentityPolicy[];
  /** e.g. `sns:Publish`. */
  readonly action: string;
  /**
   * The resources the action names: an ARN, or an ARN with context keys of its own, its tags. An action on several
   * resources, as AttachVolume names the instance and the volume, is allowed only when each of them is: AWS authorizes
   * each resource of a request.
   */
  readonly resources: readonly (string | RequestResource)[];
  /** Request context keys, e.g. `aws:SourceAccount`. */
  readonly context?: Record<string, string | string[]>;
}

/** A resource of a request with the context keys that belong to it, e.g. `aws:ResourceTag/<key>`. */
export interface RequestResource {
  readonly arn: string;
  readonly context: Record<string, string | string[]>;
}

type Json = unknown;
type Resources = Record<string, { Type: string; Properties?: Record<string, Json> }>;

/** A synthesized template, resolved for {@link ENV}, with its policies by role and resource. */
export class TemplatePolicies {
  private readonly resources: Resources;

  /**
   * @param template the template's JSON, `Template.fromStack(stack).toJSON()`
   * @param stackName the stack's name, `AWS::StackName`
   */
  constructor(template: Record<string, Json>, private readonly stackName: string) {
    this.resources = (template.Resources ?? {}) as Resources;
  }

  /** The logical ids of the resources of `type` whose logical id matches `pattern`. */
  logicalIds(type: string, pattern: RegExp = /./): string[] {
    return Object.entries(this.resources).filter(([id, r]) => r.Type === type && pattern.test(id)).map(([id]) => id);
  }

  /** The one resource of `type` whose logical id matches `pattern`; throws naming the candidates otherwise. */
  logicalId(type: string, pattern: RegExp = /./): string {
    const ids = this.logicalIds(type, pattern);
    if (ids.length !== 1) {
      throw new Error(`expected one ${type} matching ${pattern}, found ${ids.length}: ${JSON.stringify(ids)}`);
    }
    return ids[0];
  }

  /** What `Ref` of the resource gives, in the resolved template. */
  ref(logicalId: string): string {
    const type = this.type(logicalId);
    const hex = (n: number) => createHash('sha256').update(logicalId).digest('hex').slice(0, n);
    switch (type) {
      case 'AWS::SNS::Topic': return this.arn('sns', logicalId);
      case 'AWS::IAM::ManagedPolicy': return `arn:${ENV.partition}:iam::${ENV.account}:policy/${logicalId}`;
      case 'AWS::KMS::Key': return `${hex(8)}-${hex(12).slice(8)}-4000-8000-${hex(12)}`;
      case 'AWS::EC2::Volume': return `vol-${hex(17)}`;
      case 'AWS::EC2::NetworkInterface': return `eni-${hex(17)}`;
      case 'AWS::EC2::Instance': return `i-${hex(17)}`;
      default: return logicalId;
    }
  }

  /** What `Fn::GetAtt [logicalId, attribute]` gives, in the resolved template. */
  getAtt(logicalId: string, attribute: string): string {
    const type = this.type(logicalId);
    if (attribute === 'Arn' || attribute === 'TopicArn') {
      switch (type) {
        case 'AWS::IAM::Role': return `arn:${ENV.partition}:iam::${ENV.account}:role/${logicalId}`;
        case 'AWS::KMS::Key': return this.arn('kms', `key/${this.ref(logicalId)}`);
        case 'AWS::SNS::Topic': return this.ref(logicalId);
        case 'AWS::Logs::LogGroup': return this.arn('logs', `log-group:${logicalId}:*`);
        case 'AWS::Lambda::Function': return this.arn('lambda', `function:${logicalId}`);
        default: break;
      }
    }
    return `${logicalId}.${attribute}`;
  }

  /** The role's ARN, the principal of its requests. */
  roleArn(roleLogicalId: string): string {
    return this.getAtt(roleLogicalId, 'Arn');
  }

  /** The resolved properties of a resource. */
  properties(logicalId: string): Record<string, Json> {
    return this.resolve(this.resources[logicalId]?.Properties ?? {}) as Record<string, Json>;
  }

  /** The resolved tags of a resource, as `aws:ResourceTag/<key>` context keys. */
  resourceTagContext(logicalId: string): Record<string, string> {
    this.type(logicalId);
    const tags = this.resolve(this.resources[logicalId].Properties?.Tags ?? []) as { Key: string; Value: string }[];
    return Object.fromEntries(tags.map((t) => [`aws:ResourceTag/${t.Key}`, t.Value]));
  }

  /** `arn:<partition>:<service>:<region>:<account>:<resource>`. */
  arn(service: string, resource: string): string {
    return `arn:${ENV.partition}:${service}:${ENV.region}:${ENV.account}:${resource}`;
  }

  /**
   * Every identity policy of a role: the AWS::IAM::Policy and AWS::IAM::ManagedPolicy resources that name it in
   * `Roles`, its inline `Policies`, and its `ManagedPolicyArns`, the template's own or an AWS managed policy this file
   * holds a copy of.
   */
  identityPolicies(roleLogicalId: string): SimulationIdentityPolicy[] {
    if (this.type(roleLogicalId) !== 'AWS::IAM::Role') throw new Error(`${roleLogicalId} is not an AWS::IAM::Role`);
    const roleName = this.ref(roleLogicalId);
    const policies: SimulationIdentityPolicy[] = [];
    for (const [id, r] of Object.entries(this.resources)) {
      if (r.Type !== 'AWS::IAM::Policy' && r.Type !== 'AWS::IAM::ManagedPolicy') continue;
      const props = this.properties(id);
      if (((props.Roles ?? []) as string[]).includes(roleName)) policies.push({ name: id, policy: props.PolicyDocument });
    }
    const role = this.properties(roleLogicalId);
    for (const p of (role.Policies ?? []) as { PolicyName: string; PolicyDocument: Json }[]) {
      policies.push({ name: `${roleLogicalId}/${p.PolicyName}`, policy: p.PolicyDocument });
    }
    for (const arn of (role.ManagedPolicyArns ?? []) as string[]) policies.push({ name: arn, policy: this.managedPolicy(arn) });
    return policies;
  }

  /** The identity policies of a principal that holds the template's managed policy `logicalId` alone. */
  managedPolicyDocument(logicalId: string): SimulationIdentityPolicy[] {
    return [{ name: logicalId, policy: this.properties(logicalId).PolicyDocument }];
  }

  /**
   * The resource policy of an ARN: a topic's AWS::SNS::TopicPolicy, a key's KeyPolicy, an AWS::SSM::ResourcePolicy;
   * undefined when none.
   */
  resourcePolicy(arn: string): Json | undefined {
    for (const [id, r] of Object.entries(this.resources)) {
      if (r.Type === 'AWS::SSM::ResourcePolicy') {
        const props = this.properties(id);
        if (props.ResourceArn === arn) return props.Policy;
      } else if (r.Type === 'AWS::SNS::TopicPolicy') {
        const props = this.properties(id);
        if (((props.Topics ?? []) as string[]).includes(arn)) return props.PolicyDocument;
      } else if (r.Type === 'AWS::KMS::Key' && this.getAtt(id, 'Arn') === arn) {
        return this.properties(id).KeyPolicy;
      }
    }
    return undefined;
  }

  /**
   * The simulator's decision on a request: `Allowed` only when every resource is allowed, otherwise the first
   * resource's denial. Throws when the simulator refuses the request, as for an unknown action or a malformed policy.
   */
  async decide(request: IamRequest): Promise<Decision> {
    if (request.resources.length === 0) throw new Error(`${request.action}: a request names at least one resource`);
    for (const item of request.resources) {
      const { arn: resource, context } = typeof item === 'string' ? { arn: item, context: {} } : item;
      const simulation: Simulation = {
        request: {
          principal: request.principal,
          action: request.action,
          // An action that names no resource type, such as cloudwatch:PutMetricData, is authorized on "*" in the
          // caller's account.
          resource: { resource, accountId: resource === '*' ? arnAccount(request.principal) : arnAccount(resource) },
          contextVariables: { ...request.context, ...context },
        },
        identityPolicies: request.identityPolicies ?? [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        resourcePolicy: this.resourcePolicy(resource),
      };
      const result = await runSimulation(simulation, {});
      if (result.resultType === 'error') {
        throw new Error(`iam-simulate refused ${request.action} on ${resource} by ${request.principal}: ${JSON.stringify(result.errors)}`);
      }
      if (result.overallResult !== 'Allowed') return result.overallResult as Decision;
    }
    return 'Allowed';
  }

  private managedPolicy(arn: string): Json {
    const own = Object.keys(this.resources).find((id) => this.type(id) === 'AWS::IAM::ManagedPolicy' && this.ref(id) === arn);
    if (own) return this.properties(own).PolicyDocument;
    const name = new RegExp(`^arn:${ENV.partition}:iam::aws:policy/(?:.*/)?([^/]+)$`).exec(arn)?.[1];
    const policy = name === undefined ? undefined : AWS_MANAGED_POLICIES[name];
    if (!policy) {
      throw new Error(`managed policy ${arn} is neither in the template nor among the AWS managed policies ` +
        `test/support/iam-eval.ts holds (${Object.keys(AWS_MANAGED_POLICIES).join(', ')}): add its document there`);
    }
    return policy;
  }

  private type(logicalId: string): string {
    const r = this.resources[logicalId];
    if (!r) throw new Error(`the template has no resource ${logicalId}`);
    return r.Type;
  }

  /** Resolves the intrinsic functions policies use; throws naming any other. */
  resolve(value: Json): Json {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, Json>);
    if (entries.length === 1 && (entries[0][0] === 'Ref' || entries[0][0].startsWith('Fn::'))) {
      return this.intrinsic(entries[0][0], entries[0][1]);
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v)]));
  }

  private intrinsic(name: string, arg: Json): Json {
    switch (name) {
      case 'Ref': return this.pseudo(arg as string) ?? this.ref(arg as string);
      case 'Fn::GetAtt': {
        const [id, attribute] = Array.isArray(arg) ? arg as string[] : (arg as string).split('.');
        return this.getAtt(id, attribute);
      }
      case 'Fn::Join': {
        const [sep, parts] = arg as [string, Json[]];
        return (this.resolve(parts) as string[]).join(sep);
      }
      case 'Fn::Select': {
        const [index, list] = arg as [number, Json];
        return (this.resolve(list) as Json[])[Number(this.resolve(index))];
      }
      case 'Fn::GetAZs': return [`${ENV.region}a`, `${ENV.region}b`, `${ENV.region}c`];
      case 'Fn::Sub': {
        const [text, vars] = typeof arg === 'string' ? [arg, {}] : (arg as [string, Record<string, Json>]);
        return text.replace(/\$\{([^}!][^}]*)\}/g, (_, v: string) => {
          if (v in vars) return String(this.resolve(vars[v]));
          const pseudo = this.pseudo(v);
          if (pseudo !== undefined) return pseudo;
          const [id, attribute] = v.split('.');
          return attribute === undefined ? this.ref(id) : this.getAtt(id, attribute);
        });
      }
      default:
        throw new Error(`iam-eval cannot resolve ${name} (${JSON.stringify(arg)}): teach TemplatePolicies.intrinsic`);
    }
  }

  private pseudo(name: string): string | undefined {
    const values: Record<string, string> = {
      'AWS::AccountId': ENV.account,
      'AWS::Region': ENV.region,
      'AWS::Partition': ENV.partition,
      'AWS::URLSuffix': ENV.urlSuffix,
      'AWS::StackName': this.stackName,
      'AWS::StackId': this.arn('cloudformation', `stack/${this.stackName}/00000000-0000-4000-8000-000000000000`),
    };
    return values[name];
  }
}

/** The account of an ARN, its fifth field; AWS-owned resources, with an empty field, belong to `aws`. */
function arnAccount(arn: string): string {
  const fields = arn.split(':');
  if (fields.length < 6 || fields[0] !== 'arn') throw new Error(`not an ARN: ${JSON.stringify(arn)}`);
  return fields[4] === '' ? 'aws' : fields[4];
}
