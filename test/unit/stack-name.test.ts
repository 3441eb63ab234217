/**
 * Stack names: distinct clusterName and serverName pairs never get the same derived stack name. Writing `_` and `.` as
 * `-` and joining the names with `-` would give `a_b`, `a-b` and `a` with server `b-storage1` all the name
 * `StorageServer-a-b-storage1`. So only a pair that reads back unambiguously gets its derived name, which stacks
 * deployed under it keep: a clusterName of letters and digits, and a serverName without `_` and `.`. Any other pair is
 * refused unless `-c stackName` names the stack, as the README's "Context parameters" says.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { ContextKey, appStackName, hasOwnStackName, parseContext, stackName } from '../../lib/context';
import { BOOTSTRAP_STACK_NAME } from '../../lib/context/names';
import { ALNUM, name, stringOf } from '../support/grammars';

const read = (values: Partial<Record<ContextKey, string>>) => (key: ContextKey) => values[key];
/** Every valid name: clusterName takes A-Z a-z 0-9 _ . -, the first a letter or digit; serverName the same but '.'. */
const clusterName = name('_.-');
const serverName = name('_-');
/** Names biased towards the characters that made collisions: short, mostly separators. */
const tricky = (extra: string) => fc.tuple(fc.constantFrom(...'ab1'), stringOf(`ab1${extra}`, 0, 6)).map(([a, b]) => a + b);

/** The derived name of a pair, as the app makes it; undefined when it is refused without stackName. */
function derived(cluster: string, server: string): string | undefined {
  try {
    return parseContext(read({ clusterName: cluster, serverName: server })).stackName;
  } catch (e) {
    expect((e as Error).message).toMatch(/^Invalid context value (clusterName|serverName)=/);
    return undefined;
  }
}

describe('the review\'s colliding pairs', () => {
  test('clusterName=a serverName=b-storage1 keeps StorageServer-a-b-storage1: its name reads back as the pair', () => {
    expect(derived('a', 'b-storage1')).toBe('StorageServer-a-b-storage1');
  });

  test.each([
    ['a_b', 'storage1'],
    ['a-b', 'storage1'],
    ['a.b', 'storage1'],
  ])('clusterName=%s serverName=%s is refused, naming the key, the shared name and how to keep a deployed stack', (cluster, server) => {
    expect(() => parseContext(read({ clusterName: cluster, serverName: server }))).toThrow(new RegExp(
      `^Invalid context value clusterName="${cluster}": .*would be StorageServer-a-b-storage1, which clusterName=a ` +
      'serverName=b-storage1 gives too\\). A stack deployed under that name keeps it with -c stackName=StorageServer-a-b-storage1',
    ));
  });

  test('a serverName with _ is the key named when the cluster name is plain', () => {
    expect(() => parseContext(read({ clusterName: 'a', serverName: 'b_storage1' }))).toThrow(
      /^Invalid context value serverName="b_storage1": .*which clusterName=a serverName=b-storage1 gives too/);
  });

  test('with stackName a deployed stack of such a pair keeps its name', () => {
    const ctx = parseContext(read({ clusterName: 'a_b', serverName: 'storage1', stackName: 'StorageServer-a-b-storage1' }));
    expect(ctx).toMatchObject({ clusterName: 'a_b', serverName: 'storage1', stackName: 'StorageServer-a-b-storage1' });
  });

  test('the default pair and the README\'s pairs keep their names', () => {
    expect(derived('cluster', 'storage1')).toBe('StorageServer-cluster-storage1');
    expect(derived('hpc1', 'scratch1')).toBe('StorageServer-hpc1-scratch1');
    expect(derived('hpc1', 'lustre1')).toBe('StorageServer-hpc1-lustre1');
    expect(derived('cluster', 'restored')).toBe('StorageServer-cluster-restored');
  });
});

describe('the mapping', () => {
  test('distinct pairs never get the same derived name (generated pairs, separators favoured)', () => {
    const pair = fc.oneof(fc.tuple(clusterName, serverName), fc.tuple(tricky('_.-'), tricky('_-')));
    fc.assert(fc.property(pair, pair, ([c1, s1], [c2, s2]) => {
      fc.pre(c1 !== c2 || s1 !== s2);
      const [n1, n2] = [appStackName(c1, s1), appStackName(c2, s2)];
      if (n1 !== undefined && n2 !== undefined) expect(n1).not.toBe(n2);
    }), { numRuns: 1000 });
  });

  test('of every pair that today\'s mapping sends to the same name as a generated pair, at most one gets a derived name', () => {
    // The colliding pairs of a name: split it at any hyphen, and write each hyphen as '-', '_' or '.'.
    const colliding = (n: string, choices: number[]): [string, string][] => {
      const rest = n.slice('StorageServer-'.length);
      const hyphens = [...rest].flatMap((ch, i) => (ch === '-' ? [i] : []));
      return hyphens.map((split, k) => {
        const chars = [...rest];
        hyphens.forEach((h, j) => { if (h !== split) chars[h] = '-_.'[choices[(j + k) % choices.length] % 3]; });
        return [chars.slice(0, split).join(''), chars.slice(split + 1).join('')];
      });
    };
    fc.assert(fc.property(tricky('_.-'), tricky('_-'), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (c, s, choices) => {
      const pairs = [[c, s] as [string, string], ...colliding(stackName(c, s), choices)]
        .filter(([a, b]) => a !== '' && b !== '' && !b.includes('.'));
      const named = new Set(pairs.filter(([a, b]) => appStackName(a, b) !== undefined).map(([a, b]) => `${a}\u0000${b}`));
      expect(named.size).toBeLessThanOrEqual(1);
    }), { numRuns: 1000 });
  });

  test('a derived name reads back as its pair: the cluster up to the first hyphen, the server after it', () => {
    fc.assert(fc.property(clusterName, serverName, (c, s) => {
      const n = appStackName(c, s);
      if (n === undefined) return;
      const rest = n.slice('StorageServer-'.length);
      expect([rest.slice(0, rest.indexOf('-')), rest.slice(rest.indexOf('-') + 1)]).toEqual([c, s]);
    }), { numRuns: 500 });
  });

  test('of the pairs that today\'s mapping sends to one name, only the one it reads back as keeps it', () => {
    // Small alphabet, every pair: the pairs that today's stackName() sends to each name, counted.
    const names = ['a', 'b', 'a-b', 'a_b', 'a.b', 'b-a', 'a-b-a', 'b_a', 'a1', '1-a'];
    const byName = new Map<string, string[][]>();
    for (const c of names) {
      for (const s of names.filter((n) => !n.includes('.'))) {
        const n = stackName(c, s);
        byName.set(n, [...(byName.get(n) ?? []), [c, s]]);
      }
    }
    for (const [n, pairs] of byName) {
      // At most one of the pairs sharing a name keeps it: the one the name reads back as, whenever it is among them.
      const kept = pairs.filter(([c, s]) => appStackName(c, s) === n);
      expect(kept.length).toBeLessThanOrEqual(1);
      const rest = n.slice('StorageServer-'.length);
      const readBack = [rest.slice(0, rest.indexOf('-')), rest.slice(rest.indexOf('-') + 1)];
      if (pairs.some(([c, s]) => c === readBack[0] && s === readBack[1])) expect(kept).toEqual([readBack]);
      for (const [c, s] of pairs) expect(appStackName(c, s) === undefined).toBe(!hasOwnStackName(c, s));
    }
  });

  test('every derived name is a valid CloudFormation stack name within 128 characters, or the pair is refused naming a key', () => {
    fc.assert(fc.property(clusterName, serverName, (c, s) => {
      const n = derived(c, s);
      if (n !== undefined) expect(n).toMatch(new RegExp(`^[${ALNUM.slice(0, 52)}][${ALNUM}-]{0,127}$`));
    }), { numRuns: 300 });
  });
});

describe("the CDK bootstrap stack's name", () => {
  test('stackName=CDKToolkit is refused, naming what it would do', () => {
    expect(() => parseContext(read({ stackName: 'CDKToolkit' }))).toThrow(
      /Invalid context value stackName="?'?CDKToolkit'?"?: allowed is a CloudFormation stack name other than CDKToolkit, the CDK bootstrap stack's default name/,
    );
    expect(parseContext(read({ stackName: 'CDKToolkit2' })).stackName).toBe('CDKToolkit2');
  });

  test("the name is the CDK CLI's own default toolkit stack name", () => {
    // The CLI, the aws-cdk devDependency, defines it in its bundled entry point, which its exports map keeps private.
    const entry = path.join(path.dirname(require.resolve('aws-cdk/package.json')), 'lib', 'index.js');
    expect(fs.readFileSync(entry, 'utf8').match(/DEFAULT_TOOLKIT_STACK_NAME = "([^"]+)"/)?.[1]).toBe(BOOTSTRAP_STACK_NAME);
  });
});
