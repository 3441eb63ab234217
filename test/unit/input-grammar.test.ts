/**
 * Inputs by grammar: for every context key, valid and invalid values generated from the key's grammar. The grammars, in
 * test/support/grammar-rows-*.ts, are built from the rule's own definition, the RFC or the AWS guide cited on each
 * generator, never from the production regex. Every valid value reaches the parsed context unchanged; the parser is
 * what the app's stack is built from, and test/unit/context.test.ts and the snapshot show the context reaching the
 * template. Every invalid one stops parsing with a message that names the key. Fixed cases stand beside the generated
 * ones. A context key without a row fails the first test, since the rows are checked against CONTEXT_DEFAULTS,
 * lib/context.ts's key table.
 */
import fc from 'fast-check';
import { CONTEXT_DEFAULTS, ContextKey, parseAppContext, parseContext } from '../../lib/context';
import { TARGET, type Context, type Row } from '../support/grammars';
import { D2_TYPES, D3_TYPES, EBS_TYPES, STORAGE_ROWS } from '../support/grammar-rows-storage';
import { SERVER_ROWS } from '../support/grammar-rows-server';
import { EXISTING_ROWS } from '../support/grammar-rows-existing';
import { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES } from '../../lib/sizing';

let generated = 0;
const started = Date.now();

/** One row per context key; the rows are in test/support/grammar-rows-*.ts. */
const ROWS: Record<ContextKey, Row> = { ...STORAGE_ROWS, ...SERVER_ROWS, ...EXISTING_ROWS };

// ---- the properties ---------------------------------------------------------------------------------------------

const RUNS = { valid: 100, invalid: 100 };

function contextFor(key: ContextKey, row: Row, value: string | [string, Context]): { text: string; context: Context } {
  const [text, extra] = typeof value === 'string' ? [value, {}] : value;
  return { text, context: { ...row.base, ...extra, [key]: text } };
}

function accepts(key: ContextKey, row: Row, value: string | [string, Context]): void {
  const { text, context } = contextFor(key, row, value);
  // The app's own parse: a server's keys, or an existing storage's.
  const app = parseAppContext((k) => context[k], TARGET);
  const parsed: Record<string, unknown> = { ...(app.existing ?? app.server.context) };
  expect(parsed[key]).toEqual((row.parsed ?? ((t: string) => t))(text));
}

function refuses(key: ContextKey, row: Row, value: string | [string, Context]): void {
  const { context } = contextFor(key, row, value);
  expect(() => parseAppContext((k) => context[k], TARGET)).toThrow(new RegExp(`^Invalid context value ${key}=`));
}

/**
 * Fixed cases: values a careless or hostile user types, each of which a loose rule would accept or refuse without
 * naming the key. Each must stop parsing naming the key and saying what is wrong.
 */
const REVIEW: [string, Context, RegExp][] = [
  ['a multicast CIDR with the public opt-in', { clientCidrs: '224.0.0.0/4', allowPublicClientCidrs: 'true' }, /^Invalid context value clientCidrs="224.0.0.0\/4": .*it holds addresses of 224.0.0.0\/4, "Multicast" in the IANA IPv4 Address Space Registry .*which are never clients/],
  ['a loopback CIDR with the public opt-in', { clientCidrs: '127.0.0.0/8', allowPublicClientCidrs: 'true' }, /^Invalid context value clientCidrs="127.0.0.0\/8": .*it holds addresses of 127.0.0.0\/8, "Loopback"/],
  ['a network address as the login node', { loginIp: '10.0.0.0' }, /^Invalid context value loginIp="10.0.0.0": .*a network address/],
  ['.. as a cluster name', { clusterName: '..' }, /^Invalid context value clusterName="..": allowed is 1-64 characters .*the first a letter or a digit/],
  ['. as a server name (failed inside CDK\'s dashboard-name check)', { serverName: '.' }, /^Invalid context value serverName=".": allowed is .*no '.'/],
  ['an empty domain label', { alarmEmail: 'a@.b.c' }, /^Invalid context value alarmEmail="a@.b.c": allowed is one e-mail address .*no empty label/],
  ['a topic in another region', { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms' }, /^Invalid context value alarmTopicArn=.*the topic is in eu-west-1, but the stack deploys to us-east-1/],
  ['a bucket name with two adjacent dots', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://a..b' }, /^Invalid context value fsxDataRepositoryPath=.*two adjacent dots/],
  ['a bucket name formatted as an IP address', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://192.168.1.1/x' }, /^Invalid context value fsxDataRepositoryPath=.*formatted as an IP address/],
  ['an empty prefix segment', { backend: 'fsx-lustre', fsxDataRepositoryPath: 's3://bucket//x' }, /^Invalid context value fsxDataRepositoryPath=.*bad segment ''/],
  ['a capacity beyond the largest file system (was "must be a whole number of GiB")', { capacityTiB: '1000000' }, /^Invalid context value capacityTiB="1000000": allowed is a positive number of TiB whose FSx for Lustre plan fits in 9999999 GiB/],
  ['clusterName=a_b (stack name of clusterName=a serverName=b-storage1)', { clusterName: 'a_b' }, /^Invalid context value clusterName="a_b": .*StorageServer-a-b-storage1/],
  ['clusterName=a-b (the same stack name)', { clusterName: 'a-b' }, /^Invalid context value clusterName="a-b": .*StorageServer-a-b-storage1/],
];

test.each(REVIEW)('the review\'s value: %s', (_, context, message) => {
  expect(() => parseContext((k) => context[k], TARGET)).toThrow(message);
});

test("the instanceType row's types, spelt out from the EC2 guides, are exactly the catalogue's: a family catalogued later must be added here", () => {
  expect([...EBS_TYPES].sort()).toEqual(OVERRIDE_EBS_INSTANCE_TYPES.map((t) => t.name).sort());
  expect([...D2_TYPES, ...D3_TYPES].sort()).toEqual(OVERRIDE_INSTANCE_STORE_TYPES.map((t) => t.name).sort());
});

test('every context key of lib/context.ts has a row, and every row is a key', () => {
  expect(Object.keys(ROWS).sort()).toEqual(Object.keys(CONTEXT_DEFAULTS).sort());
});

describe.each(Object.keys(CONTEXT_DEFAULTS) as ContextKey[])('%s', (key) => {
  const row = ROWS[key];

  test('fixed cases: valid ones are parsed unchanged, invalid ones refused naming the key', () => {
    for (const value of row.fixedValid) accepts(key, row, value);
    for (const value of row.fixedInvalid) refuses(key, row, value);
  });

  test('generated valid values reach the parsed context unchanged', () => {
    fc.assert(fc.property(row.valid, (value) => {
      generated++;
      accepts(key, row, value);
    }), { numRuns: RUNS.valid });
  });

  test('generated invalid values are refused, naming the key', () => {
    fc.assert(fc.property(row.invalid, (value) => {
      generated++;
      refuses(key, row, value);
    }), { numRuns: RUNS.invalid });
  });
});

test('at least 1,000 generated values in all', () => {
  const seconds = (Date.now() - started) / 1000;
  // The time is printed, not asserted: a loaded machine would fail a timed test that passes on an idle one.
  console.log(`input-grammar: ${generated} generated context values in ${seconds.toFixed(1)} s`);
  expect(generated).toBeGreaterThanOrEqual(1000);
});
