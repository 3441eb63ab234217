/**
 * Synth messages name a setting as its reader sets it: the context key in the app, the prop in a library app
 * (lib/setting-names.ts). The app's own default synth is quiet: test/unit/app-cli.test.ts runs it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as ts from 'typescript';
import { namesSettingsByContext, SettingNames } from '../../lib/setting-names';
import { tsFilesUnder } from '../support/backend-names';
import { REPO_ROOT } from '../support/virtual-program';

const RETAIN = { prop: 'snapshots.retain', key: 'snapshotRetain' };

describe('SettingNames', () => {
  test('under the app\'s stack: the context key, and -c key=value', () => {
    const stack = new Stack(new App(), 'App');
    namesSettingsByContext(stack);
    // Read through the tree: a construct deep under the stack sees the mark.
    const names = SettingNames.of(new Construct(new Construct(stack, 'Server'), 'Part'));
    expect(names.name(RETAIN)).toBe('snapshotRetain');
    expect(names.set(RETAIN, '0')).toBe('-c snapshotRetain=0');
    expect(names.set({ prop: 'backend', key: 'backend' }, 'ebs', 'Backend.EBS')).toBe('-c backend=ebs');
  });

  test('anywhere else: the prop, as a library user writes it', () => {
    const names = SettingNames.of(new Stack(new App(), 'Library'));
    expect(names.name(RETAIN)).toBe('snapshots.retain');
    expect(names.set(RETAIN, '0')).toBe('snapshots.retain: 0');
    expect(names.set({ prop: 'backend', key: 'backend' }, 'ebs', 'Backend.EBS')).toBe('backend: Backend.EBS');
  });
});

/** Every `.addWarningV2(...)`, `.addWarning(...)` and `.addInfo(...)` call under lib/, as file:line and its text. */
function annotationCalls(dir: string): { where: string; text: string }[] {
  const calls: { where: string; text: string }[] = [];
  for (const file of tsFilesUnder(REPO_ROOT, dir)) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
        && ['addWarningV2', 'addWarning', 'addInfo'].includes(node.expression.name.text)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        calls.push({ where: `${file}:${line + 1}`, text: node.arguments.map((a) => a.getText()).join(', ') });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

describe('no synth message spells a setting one way for both readers', () => {
  test('no annotation under lib/ writes a context key (-c key) or says "(context)" or "(prop)" itself', () => {
    const calls = annotationCalls('lib');
    // The scan finds the calls: the plan's warnings are among them.
    expect(calls.map((c) => c.where)).toEqual(expect.arrayContaining([expect.stringMatching(/^lib\/plan-warnings\.ts:/)]));
    const fixed = calls.filter((c) => /-c [A-Za-z]|\((context|prop)\)/.test(c.text)).map((c) => c.where);
    expect(fixed).toEqual([]);
  });
});
