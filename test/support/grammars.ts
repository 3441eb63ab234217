/**
 * Generators of input values from each input's grammar, for the property tests in test/unit/input-grammar.test.ts,
 * test/unit/prop-grammar.test.ts and test/unit/stack-name.test.ts. Each is built from the rule's own definition, the
 * RFC or the AWS guide cited on it, never from the production regex in lib/validation.ts: they are the independent side
 * of the comparison.
 */
import fc from 'fast-check';
import type { ContextKey } from '../../lib/context';

/** Context values by key: the context a value of a row needs beyond the key itself. */
export type Context = Partial<Record<ContextKey, string>>;

/** One context key's grammar, for test/unit/input-grammar.test.ts; the rows are in grammar-rows-*.ts. */
export interface Row {
  /** Other keys a value of this key needs, e.g. backend=fsx-lustre for the FSx keys. */
  readonly base?: Context;
  /** Generated values the key must accept, with the context they need beyond `base`. */
  readonly valid: fc.Arbitrary<string | [string, Context]>;
  /** Generated values the key must refuse, with the context beyond `base`. */
  readonly invalid: fc.Arbitrary<string | [string, Context]>;
  /** What the parsed context holds for a valid text: the text itself unless said. */
  readonly parsed?: (text: string) => unknown;
  /** Fixed cases: the review's values, edges of each rule. */
  readonly fixedValid: (string | [string, Context])[];
  readonly fixedInvalid: (string | [string, Context])[];
}

/** Where the stack deploys in these tests; the app passes the CLI's CDK_DEFAULT_REGION and CDK_DEFAULT_ACCOUNT. */
export const TARGET = { region: 'us-east-1', account: '123456789012' };

export const ipText = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
export const ipNumber = (text: string) => text.split('.').reduce((a, o) => a * 256 + Number(o), 0);
export const block = (cidr: string) => {
  const [a, p] = cidr.split('/');
  return { start: ipNumber(a), prefix: Number(p), size: 2 ** (32 - Number(p)) };
};
export const overlaps = (x: { start: number; size: number }, y: { start: number; size: number }) =>
  x.start < y.start + y.size && y.start < x.start + x.size;

/** RFC 1918 3, with 10/8, 172.16/12 and 192.168/16, and RFC 6598's shared address space, 100.64/10. */
export const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'].map(block);
/**
 * Blocks where no client lies, even with the public opt-in: those of the IANA IPv4 Special-Purpose Address Registry,
 * RFC 6890, whose "Globally Reachable" column is False and which are not private-use by RFC 1918 or RFC 6598; a
 * withdrawn one, RFC 7526; and multicast, RFC 5771, from the IPv4 address space registry. 192.0.0.0/24 is left out here
 * because it holds globally reachable rows, 192.0.0.9/32 and 192.0.0.10/32; NOT_PUBLIC has it.
 */
export const SPECIAL = ['0.0.0.0/8', '127.0.0.0/8', '169.254.0.0/16', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15',
  '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4'].map(block);
/** Every block a public address must avoid: SPECIAL and the IETF protocol assignments' /24, per RFC 6890 2.1. */
export const NOT_PUBLIC = [...SPECIAL, block('192.0.0.0/24')];

/** A canonical CIDR text inside a block: by RFC 4632 3.1, the prefix's network address with no host bits. */
export const cidrIn = (b: { start: number; prefix: number }) => fc.tuple(fc.integer({ min: b.prefix, max: 32 }), fc.nat()).map(([p, r]) => {
  const size = 2 ** (32 - p);
  const inside = (r % 2 ** (32 - b.prefix)) - ((r % 2 ** (32 - b.prefix)) % size);
  return `${ipText(b.start + inside)}/${p}`;
});
export const privateCidr = fc.constantFrom(...PRIVATE).chain(cidrIn);
export const specialCidr = fc.constantFrom(...SPECIAL).chain(cidrIn);
/** Any canonical CIDR of prefix 1-32. */
export const anyCidr = fc.tuple(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 2 ** 32 - 1 })).map(([p, a]) => {
  const size = 2 ** (32 - p);
  return { text: `${ipText(a - (a % size))}/${p}`, start: a - (a % size), size };
});
export const isPrivate = (c: { start: number; size: number }) => PRIVATE.some((b) => c.start >= b.start && c.start + c.size <= b.start + b.size);
export const publicUnicastCidr = anyCidr.filter((c) => !isPrivate(c) && !NOT_PUBLIC.some((s) => overlaps(c, s))).map((c) => c.text);
export const publicCidr = anyCidr.filter((c) => !isPrivate(c)).map((c) => c.text);
/** A CIDR with host bits set: a prefix of 1-31 and an address that is not its network's. */
export const hostBitsCidr = fc.tuple(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .filter(([p, a]) => a % 2 ** (32 - p) !== 0).map(([p, a]) => `${ipText(a)}/${p}`);
/** A dotted quad with a leading zero on one number, which inet_aton reads as octal, per RFC 6943 3.1.1. */
export const leadingZero = (text: string, i: number) => text.replace(/^([^/]*)/, (q) => q.split('.').map((o, j) => (j === i % 4 ? `0${o}` : o)).join('.'));

/**
 * A host address of a subnet. Every VPC subnet is a /16 to /28, per the Amazon VPC User Guide's "Subnet CIDR blocks".
 * The first, network, and last, broadcast, address of a subnet are no host's, per RFC 919 and RFC 1122 3.2.1.3. So an
 * address whose low 16 bits are all 0 or all 1 is one of those in any subnet that can hold it.
 */
export const isSubnetEdge = (a: number) => a % 65536 === 0 || a % 65536 === 65535;
export const addressIn = (b: { start: number; size: number }) => fc.integer({ min: 0, max: b.size - 1 }).map((i) => b.start + i);
export const privateHost = fc.constantFrom(...PRIVATE).chain(addressIn).filter((a) => !isSubnetEdge(a)).map(ipText);
export const publicHost = fc.integer({ min: 0, max: 2 ** 32 - 1 })
  .filter((a) => !PRIVATE.some((b) => a >= b.start && a < b.start + b.size) && !NOT_PUBLIC.some((s) => a >= s.start && a < s.start + s.size) && !isSubnetEdge(a))
  .map(ipText);
export const subnetEdge = fc.constantFrom(...PRIVATE).chain((b) => fc.tuple(fc.integer({ min: 0, max: b.size / 65536 - 1 }), fc.boolean())
  .map(([i, last]) => ipText(b.start + i * 65536 + (last ? 65535 : 0))));
export const specialHost = fc.constantFrom(...SPECIAL).chain(addressIn).map(ipText);

/** Characters of a string: a string of `min`-`max` characters picked from `chars`. */
export const stringOf = (chars: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...chars), { minLength: min, maxLength: max }).map((a) => a.join(''));
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Names, clusterName and serverName: segments of SSM parameter paths, whose characters are a-zA-Z0-9_.- per the Systems
 * Manager User Guide's "Parameter name requirements". 1-64, the first a letter or digit, by the project's rule that
 * `.`, `..` and `-x` are not names. serverName also names a CloudWatch dashboard, whose names take A-Z a-z 0-9 _ - per
 * PutDashboard in the CloudWatch API Reference, so no `.`.
 */
export const name = (extra: string) => fc.tuple(fc.constantFrom(...ALNUM), stringOf(ALNUM + extra, 0, 63)).map(([a, b]) => a + b);
export const badName = (extra: string) => fc.oneof(
  fc.tuple(fc.constantFrom(...extra), stringOf(ALNUM + extra, 0, 10)).map(([a, b]) => a + b),
  fc.tuple(name(extra), fc.constantFrom(' ', '/', '$', ':', 'é', '*', ',', '\\')).map(([n, c]) => n.slice(0, 30) + c + 'x'),
  name(extra).map((n) => n + 'x'.repeat(65 - n.length)),
);

/** 8 or 17 lower-case hex digits after the kind, per the EC2 User Guide's "Resource IDs". */
export const ec2Id = (kind: string) => fc.oneof(stringOf('0123456789abcdef', 8, 8), stringOf('0123456789abcdef', 17, 17)).map((h) => `${kind}-${h}`);
export const badEc2Id = (kind: string) => fc.oneof(
  stringOf('0123456789abcdef', 1, 30).filter((h) => h.length !== 8 && h.length !== 17).map((h) => `${kind}-${h}`),
  fc.tuple(ec2Id(kind), fc.nat()).map(([id, i]) => id.slice(0, kind.length + 1 + (i % 8)) + 'G' + id.slice(kind.length + 2 + (i % 8))),
  ec2Id(kind).map((id) => id.toUpperCase()),
  ec2Id(kind).map((id) => `x${id}`),
);

/**
 * E-mail addresses by fast-check's own generator, which follows RFC 5322's dot-atom local part and the lengths of RFC
 * 1123 and RFC 5321, independently of this project. The invalid ones break one rule each: an empty domain label, as in
 * `a@.b.c`; a label with a hyphen first or last, against RFC 1035 2.3.1; an empty local run, a dot first, last or
 * doubled; an all-digit top-level domain, against RFC 3696 2; two addresses; a space; no `@`; a local part of 65
 * characters.
 */
export const email = fc.emailAddress();
export const badEmail = fc.tuple(email, fc.nat()).map(([e, i]) => {
  const [local, domain] = [e.slice(0, e.lastIndexOf('@')), e.slice(e.lastIndexOf('@') + 1)];
  const labels = domain.split('.');
  const k = i % labels.length;
  const broken = [
    `${local}@.${domain}`,
    `${local}@${labels.map((l, j) => (j === k ? '' : l)).join('.')}`,
    `${local}@${labels.map((l, j) => (j === k ? `-${l}` : l)).join('.')}`,
    `${local}@${labels.map((l, j) => (j === k ? `${l}-` : l)).join('.')}`,
    `.${local}@${domain}`,
    `${local}.@${domain}`,
    `${local.replace(/^([^.]*)/, '$1..')}x@${domain}`,
    `${local}@${labels.slice(0, -1).join('.') || 'host'}.${i % 1000}`,
    `${e},${e}`,
    `${local} x@${domain}`,
    `${local}${domain}`,
    `${'a'.repeat(65)}@${domain}`,
    `${local}@${domain}.`,
  ];
  return broken[i % broken.length];
});

/**
 * SNS topic names: 1-256 of A-Z a-z 0-9 _ -, per CreateTopic in the SNS API Reference; FIFO topics, .fifo, are refused.
 */
export const topicName = stringOf(`${ALNUM}_-`, 1, 256);
export const arn = (partition: string, region: string, account: string, topic: string) => `arn:${partition}:sns:${region}:${account}:${topic}`;
/** Regions of other partitions and of this one, per the AWS General Reference's "AWS Regions" and ARN format. */
export const OTHER_REGIONS = ['eu-west-1', 'ap-southeast-2', 'us-west-2', 'sa-east-1', 'ca-central-1'];
export const PARTITION_OF = { 'cn-north-1': 'aws-cn', 'us-gov-west-1': 'aws-us-gov', 'us-iso-east-1': 'aws-iso', 'eusc-de-east-1': 'aws-eusc' };
export const account = stringOf('0123456789', 12, 12);
export const badTopicArn = fc.oneof(
  fc.tuple(fc.constantFrom(...OTHER_REGIONS), topicName).map(([r, t]) => arn('aws', r, TARGET.account, t)),
  fc.tuple(account.filter((a) => a !== TARGET.account), topicName).map(([a, t]) => arn('aws', TARGET.region, a, t)),
  fc.tuple(fc.constantFrom(...Object.values(PARTITION_OF), 'aws-xx', 'AWS', ''), topicName).map(([p, t]) => arn(p, TARGET.region, TARGET.account, t)),
  fc.tuple(fc.constantFrom(...Object.keys(PARTITION_OF)), topicName).map(([r, t]) => arn('aws', r, TARGET.account, t)),
  topicName.map((t) => arn('aws', TARGET.region, TARGET.account, `${t.slice(0, 200)}.fifo`)),
  fc.tuple(stringOf('0123456789', 1, 20).filter((a) => a.length !== 12), topicName).map(([a, t]) => arn('aws', TARGET.region, a, t)),
  fc.tuple(topicName, fc.constantFrom('/', ':', '.', ' ', '#')).map(([t, c]) => arn('aws', TARGET.region, TARGET.account, `${t.slice(0, 100)}${c}x`)),
  topicName.map((t) => arn('aws', TARGET.region, TARGET.account, t).replace(':sns:', ':sqs:')),
);

/**
 * Bucket names by the S3 User Guide's "General purpose bucket naming rules": 3-63 characters; lower-case letters,
 * digits, dots and hyphens; a letter or digit first and last; no two adjacent dots; not formatted as an IP address;
 * not starting with xn--, sthree- or amzn-s3-demo-; not ending with -s3alias, --ol-s3, .mrap, --x-s3 or --table-s3.
 */
export const S3_RULES = {
  reservedPrefixes: ['xn--', 'sthree-', 'amzn-s3-demo-'],
  reservedSuffixes: ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'],
};
export const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const bucket = fc.tuple(fc.constantFrom(...LOWER), stringOf(`${LOWER}.-`, 1, 61), fc.constantFrom(...LOWER))
  .map(([a, b, c]) => a + b + c)
  .filter((b) => !b.includes('..') && !/^\d+\.\d+\.\d+\.\d+$/.test(b) &&
    !S3_RULES.reservedPrefixes.some((p) => b.startsWith(p)) && !S3_RULES.reservedSuffixes.some((s) => b.endsWith(s)));
/** Prefix segments of the S3 User Guide's "safe characters" for object key names: 0-9 a-z A-Z ! - _ . * ' ( ). */
export const keySegment = stringOf(`${ALNUM}!-_.*'()`, 1, 20).filter((s) => s !== '.' && s !== '..');
export const s3Path = fc.tuple(bucket, fc.array(keySegment, { maxLength: 4 }), fc.boolean())
  .map(([b, segs, slash]) => `s3://${b}${segs.length ? `/${segs.join('/')}` : ''}${segs.length && slash ? '/' : ''}`);
export const badBucket = fc.oneof(
  bucket.map((b) => b.toUpperCase()).filter((b) => /[A-Z]/.test(b)),
  bucket.map((b) => `${b.slice(0, 30)}..${b.slice(30) || 'x'}`),
  bucket.map((b) => `-${b.slice(1)}`),
  bucket.map((b) => `${b.slice(0, -1)}-`),
  stringOf(LOWER, 0, 2),
  stringOf(LOWER, 64, 70),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.')),
  fc.tuple(fc.constantFrom(...S3_RULES.reservedPrefixes), stringOf(LOWER, 3, 20)).map(([p, b]) => p + b),
  fc.tuple(stringOf(LOWER, 3, 20), fc.constantFrom(...S3_RULES.reservedSuffixes)).map(([b, s]) => b + s),
  bucket.map((b) => `${b.slice(0, 20)}_x`),
);
/** Paths that break the path's own form: an empty, `.` or `..` segment; a character the S3 guide says to avoid. */
export const badS3Path = fc.oneof(
  badBucket.map((b) => `s3://${b}`),
  fc.tuple(bucket, keySegment).map(([b, s]) => `s3://${b}//${s}`),
  fc.tuple(bucket, fc.constantFrom('.', '..')).map(([b, s]) => `s3://${b}/${s}/x`),
  fc.tuple(bucket, keySegment, fc.constantFrom('\\', '{', '^', '}', '%', '`', ']', '"', '>', '[', '~', '<', '#', '|', ' ', '\t', 'é')).map(([b, s, c]) => `s3://${b}/${s}${c}x`),
  bucket.map((b) => `S3://${b}`),
  bucket.map((b) => `https://${b}`),
  bucket.map((b) => `s3:/${b}`),
  bucket.map((b) => `s3://${b}/${'a'.repeat(900)}`),
);

/** Canonical decimal numbers, digits with an optional fraction: the form the parser documents. */
export const decimal = (min: number, max: number) => fc.tuple(fc.integer({ min, max }), fc.option(fc.integer({ min: 1, max: 999 }), { nil: undefined }))
  .map(([i, f]) => (f === undefined ? String(i) : `${i}.${String(f).padStart(3, '0')}`))
  .filter((t) => Number(t) > 0 && Number(t) <= max);
export const notDecimal = fc.oneof(
  fc.constantFrom('NaN', 'Infinity', '-1', '-0', '1e3', '0x10', '5TiB', '5,5', '.5', '5.', '+5', '1_000', 'ten'),
  fc.integer({ min: 1, max: 1000 }).map((n) => `${n}e0`),
  fc.integer({ min: 1, max: 1000 }).map((n) => `-${n}`),
);
export const wholeIn = (min: number, max: number) => fc.integer({ min, max }).map(String);

export const bool = fc.constantFrom('true', 'false');
/** Anything but the two words: the parser takes 'true' and 'false' only, not TRUE, yes or 1. */
export const notBool = fc.oneof(fc.constantFrom('TRUE', 'False', 'yes', 'no', '1', '0', 'on', 't'), stringOf(ALNUM, 1, 8))
  .filter((v) => v !== 'true' && v !== 'false');
export const notOneOf = (words: string[]) => fc.oneof(fc.constantFrom(...words.map((w) => w.toLowerCase()), ...words.map((w) => w.toUpperCase()), ...words.map((w) => `${w}x`)), stringOf(`${ALNUM}_-`, 1, 12))
  .filter((v) => !words.includes(v));

/**
 * EC2 tag keys that a State Manager target can name. EC2's "Tag restrictions" in the EC2 User Guide allow 1-128 Unicode
 * characters, letters, digits, spaces and `+ - = . _ : / @`, not starting with `aws:` in any case. Target, Key in the
 * SSM API Reference allows letters, separators, numbers and `_ . : / = - @`, so no `+`.
 */
export const TAG_CHARS = `${ALNUM} -=._:/@ÄéЖ`;
export const tagKey = stringOf(TAG_CHARS, 1, 128).map((k) => k.trim()).filter((k) => k.length > 0 && !k.toLowerCase().startsWith('aws:'));
export const badTagKey = fc.oneof(
  tagKey.map((k) => `aws:${k}`.slice(0, 128)),
  tagKey.map((k) => `AWS:${k}`.slice(0, 128)),
  tagKey.map((k) => k + 'x'.repeat(129 - k.length)),
  fc.tuple(tagKey, fc.constantFrom('#', '*', '!', '?', ',', ';', '$', '%', '&', '(', '+', '\t')).map(([k, c]) => `${k.slice(0, 60)}${c}x`),
);

/**
 * EC2 key pair and placement group names: 1-255 ASCII characters, per KeyName and GroupName in the EC2 API Reference.
 */
export const printable = stringOf(Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join(''), 1, 255).map((s) => s.trim()).filter((s) => s.length > 0);
export const badPrintable = fc.oneof(
  printable.map((s) => s + 'x'.repeat(256 - s.length)),
  fc.tuple(printable, fc.constantFrom('é', '\u0001', '\u007f', '日')).map(([s, c]) => `${s.slice(0, 100)}${c}x`),
);

/**
 * CloudFormation stack names, per CreateStack in the CloudFormation API Reference: a letter, then letters, digits,
 * hyphens; 1-128.
 */
export const cfnStackName = fc.tuple(fc.constantFrom(...ALNUM.slice(0, 52)), stringOf(`${ALNUM}-`, 0, 127)).map(([a, b]) => a + b);
export const badStackName = fc.oneof(
  fc.tuple(fc.constantFrom(...'0123456789-'), stringOf(`${ALNUM}-`, 0, 20)).map(([a, b]) => a + b),
  fc.tuple(cfnStackName, fc.constantFrom('_', '.', ' ', '/', ':')).map(([n, c]) => `${n.slice(0, 60)}${c}x`),
  cfnStackName.map((n) => n + 'x'.repeat(129 - n.length)),
);

