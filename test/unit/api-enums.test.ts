/**
 * The public API names its closed sets with enums, never with string literals: jsii turns a literal type into a plain
 * `string` in Python and the other languages, and the set is lost there without a word (docs/plans/issue-43-jsii.md,
 * section 2). test/support/literal-unions.ts finds each member and parameter typed with one.
 */
import * as path from 'path';
import { literalTypedMembers } from '../support/literal-unions';
import { REPO_ROOT } from '../support/virtual-program';

const DIR = path.join(REPO_ROOT, 'test', '.literal-unions-fixture');

const FIXTURE = new Map([
  [path.join(DIR, 'index.ts'), `
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
export * from './more';
export enum Mode { FAST = 'fast', SLOW = 'slow' }
type Colour = 'red' | 'blue';
export interface Props {
  readonly mode?: Mode;
  readonly colour?: Colour;
  readonly auto?: Mode | 'auto';
  readonly names?: ('a' | 'b')[];
  readonly name?: string;
  readonly port?: ec2.Port;
}
export class Thing {
  public static readonly KIND: 'thing' = 'thing';
  private readonly secret: 'a' | 'b' = 'a';
  constructor(public readonly kind: 'x' | 'y') {}
  public pick(mode: Mode, side: 'left' | 'right'): void { void mode; void side; void this.secret; }
  public get role(): 'storage' { return 'storage'; }
  public colour(): Colour { return 'red'; }
}
export function choose(kind: Colour, mode?: Mode): Mode { return mode ?? (kind === 'red' ? Mode.FAST : Mode.SLOW); }
`],
  [path.join(DIR, 'more.ts'), 'export interface More { readonly tag: `v${number}`; readonly count: number }\n'],
]);

describe('members and parameters typed with string literals', () => {
  test('a literal, a union holding one, through an alias, an array or `export *`, on each kind of member, is found', () => {
    const found = literalTypedMembers(path.join(DIR, 'index.ts'), FIXTURE).map((f) => f.where).sort();
    expect(found).toEqual([
      'More.tag',
      'Props.auto',
      'Props.colour',
      'Props.names',
      'Thing.KIND',
      'Thing.colour()',
      'Thing.constructor(kind)',
      'Thing.pick(side)',
      'Thing.role',
      'choose(kind)',
    ]);
  });

  test('the public API has none', () => {
    const found = literalTypedMembers(path.join(REPO_ROOT, 'lib', 'index.ts'));
    expect(found.map((f) => f.where)).toEqual([]);
  });
});
