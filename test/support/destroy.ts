/**
 * What a stack deletion must keep beside a kept resource, read from a template. That is everything the kept resources
 * that hold data name in their properties, by a Ref or Fn::GetAtt, such as their security group, subnets, route tables
 * and VPC; again for what those name; and the rules among a kept security group's own members. CloudFormation deletes
 * what is not kept. A security group, subnet or VPC still in use fails to delete with DependencyViolation, "resource
 * sg-... has a dependent object", as aws/aws-cdk#31521 shows, and the stack ends in DELETE_FAILED.
 */

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DeletionPolicy?: string;
}
export type Resources = Readonly<Record<string, TemplateResource>>;

/** The types that hold a server's data. */
export const DATA_TYPES: readonly string[] = ['AWS::EC2::Volume', 'AWS::FSx::FileSystem', 'AWS::EC2::Instance'];

export const isKept = (r: TemplateResource | undefined): boolean =>
  r?.DeletionPolicy === 'Retain' || r?.DeletionPolicy === 'RetainExceptOnCreate';

/** The logical ids of this template's resources that `value` names by Ref, Fn::GetAtt, or `${Id}` in Fn::Sub. */
export function referenced(value: unknown, resources: Resources): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.Ref === 'string' && o.Ref in resources) found.add(o.Ref);
    const getAtt = o['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && getAtt[0] in resources) found.add(getAtt[0]);
    const sub = o['Fn::Sub'];
    const text = typeof sub === 'string' ? sub : Array.isArray(sub) && typeof sub[0] === 'string' ? sub[0] : undefined;
    for (const m of text?.matchAll(/\$\{([A-Za-z0-9]+)(?:\.[A-Za-z0-9.]+)?\}/g) ?? []) if (m[1] in resources) found.add(m[1]);
    Object.values(o).forEach(walk);
  };
  walk(value);
  return [...found];
}

/** The rules among security group `id`'s own members: ingress from itself, egress to itself. */
function ownRules(id: string, resources: Resources): string[] {
  const names = (v: unknown): boolean => referenced(v, resources).includes(id);
  return Object.entries(resources).filter(([, r]) =>
    (r.Type === 'AWS::EC2::SecurityGroupIngress' && names(r.Properties?.GroupId) && names(r.Properties?.SourceSecurityGroupId)) ||
    (r.Type === 'AWS::EC2::SecurityGroupEgress' && names(r.Properties?.GroupId) && names(r.Properties?.DestinationSecurityGroupId)),
  ).map(([rid]) => rid);
}

/** What the kept data resources need kept with them, transitively, their own ids included. */
export function neededByKeptData(resources: Resources): Set<string> {
  const needed = new Set(Object.entries(resources).filter(([, r]) => DATA_TYPES.includes(r.Type) && isKept(r)).map(([id]) => id));
  const queue = [...needed];
  while (queue.length > 0) {
    const id = queue.pop()!;
    const r = resources[id];
    const next = [...referenced(r.Properties ?? {}, resources), ...(r.Type === 'AWS::EC2::SecurityGroup' ? ownRules(id, resources) : [])];
    for (const n of next) {
      if (needed.has(n)) continue;
      needed.add(n);
      queue.push(n);
    }
  }
  return needed;
}

/** The resources a destroy would delete under a kept data resource that needs them: `<id> (<type>) <policy>`. */
export function deletedUnderKeptData(resources: Resources): string[] {
  return [...neededByKeptData(resources)].filter((id) => !isKept(resources[id]))
    .map((id) => `${id} (${resources[id].Type}) ${resources[id].DeletionPolicy ?? 'no DeletionPolicy'}`);
}
