/** Reading a synthesized cloud assembly for the consumer test: its stack template, resources and assets. */
import * as fs from 'fs';
import * as path from 'path';

/** One resource of a CloudFormation template. */
export interface CfnResource {
  /** CloudFormation resource type. */
  readonly Type: string;
  /** Resource properties. */
  readonly Properties: Record<string, unknown>;
  /** What CloudFormation does with the resource when it leaves the stack. */
  readonly DeletionPolicy?: string;
  /** Logical ids of the resources this one is created after. */
  readonly DependsOn?: string | string[];
  /** CDK metadata: the construct path and the asset location. */
  readonly Metadata?: Record<string, unknown>;
}

/** The parts of a CloudFormation template the checks read. */
export interface CfnTemplate {
  /** Resources by logical id. */
  readonly Resources: Record<string, CfnResource>;
  /** Outputs by logical id. */
  readonly Outputs?: Record<string, { readonly Value: unknown }>;
}

/** The one stack of the cloud assembly in `cdkOut`: its name and template. */
export function stackTemplate(cdkOut: string): { stackName: string; template: CfnTemplate } {
  const manifest = JSON.parse(fs.readFileSync(path.join(cdkOut, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  if (stacks.length !== 1) throw new Error(`expected one stack in ${cdkOut}, found ${stacks.length}`);
  const [stackName, artifact] = stacks[0];
  const file = path.join(cdkOut, artifact.properties?.templateFile ?? `${stackName}.template.json`);
  return { stackName, template: JSON.parse(fs.readFileSync(file, 'utf8')) as CfnTemplate };
}

/** The template's resources of one type, by logical id. */
export function resourcesOfType(template: CfnTemplate, type: string): Record<string, CfnResource> {
  return Object.fromEntries(Object.entries(template.Resources).filter(([, r]) => r.Type === type));
}

/**
 * A template value as text: `Fn::Join` concatenated, `Fn::Base64` unwrapped, `Ref` and `Fn::GetAtt` written as
 * `{Ref:Id}` and `{GetAtt:Id.Attr}`, and arrays and plain objects as their values one per line.
 */
export function flatten(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(flatten).join('\n');
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1) {
    const [key] = keys;
    if (key === 'Ref') return `{Ref:${String(o.Ref)}}`;
    if (key === 'Fn::GetAtt') return `{GetAtt:${(o[key] as unknown[]).map(String).join('.')}}`;
    if (key === 'Fn::Base64') return flatten(o[key]);
    if (key === 'Fn::Join') {
      const [delimiter, parts] = o[key] as [string, unknown[]];
      return parts.map(flatten).join(delimiter);
    }
  }
  return Object.values(o).map(flatten).join('\n');
}

/** The directory of a Lambda function's code asset in `cdkOut`, from the S3 key `<hash>.zip`. */
export function assetDir(cdkOut: string, fn: CfnResource): string {
  const key = (fn.Properties.Code as { S3Key?: unknown } | undefined)?.S3Key;
  if (typeof key !== 'string')
    throw new Error(`the function's code is not an asset: ${JSON.stringify(fn.Properties.Code)}`);
  const dir = path.join(cdkOut, `asset.${key.replace(/\.zip$/, '')}`);
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`asset directory ${dir} is missing`);
  return dir;
}

/** Every file under `dir`, as paths relative to it with `/` separators. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/**
 * A resource without what differs between two syntheses of the same code from different places: the asset metadata,
 * `aws:asset:*`; the construct path the CLI adds, `aws:cdk:path`; and the S3 key of the code of the resource ids listed
 * in `codeOf`. Other metadata, the cfn-lint and cdk-nag settings, stays.
 */
export function withoutAssetLocations(resource: CfnResource, codeOf: string[], id: string): CfnResource {
  const metadata = Object.entries(resource.Metadata ?? {}).filter(
    ([k]) => !k.startsWith('aws:asset:') && k !== 'aws:cdk:path',
  );
  const properties = { ...resource.Properties };
  if (codeOf.includes(id)) properties.Code = { ...(properties.Code as object), S3Key: '<asset>' };
  const copy: Record<string, unknown> = { ...resource, Properties: properties };
  if (metadata.length) copy.Metadata = Object.fromEntries(metadata);
  else delete copy.Metadata;
  return copy as unknown as CfnResource;
}
