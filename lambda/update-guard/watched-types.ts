/**
 * The CloudFormation types whose replacement the update guard watches: the resources that hold a server's data or its
 * clients' address. `npm run gen:replacement-rules` generates their replacement rules from CloudFormation's resource
 * specification into replacement-rules.ts. spec-overrides.ts corrects them where AWS's reference says otherwise.
 */
export const WATCHED_TYPES = [
  'AWS::EC2::Instance',
  'AWS::EC2::NetworkInterface',
  'AWS::EC2::Volume',
  'AWS::FSx::FileSystem',
] as const;

/** One of {@link WATCHED_TYPES}. */
export type WatchedType = (typeof WATCHED_TYPES)[number];
