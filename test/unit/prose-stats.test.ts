/**
 * `npm run prose:stats` counts comments as test/support/prose-stats.ts says. The counts here are worked out by hand
 * from the fixtures, so a change to the counting rules shows as a failed figure.
 */
import { countBlock, countFile, hashComments, scriptComments } from '../support/prose-stats';

const TS_FIXTURE = [
  '#!/usr/bin/env node',
  '/**',
  ' * The guard refuses a shrink. It names the volume (docs/design.md, section 8).',
  ' *',
  ' * @default - no limit',
  ' */',
  "const url = 'https://example.com/a'; // not a comment in the string, this one is",
  '// eslint-disable-next-line no-console',
  '// Two line comments in a row',
  '// are one block (an aside), as in issue 30.',
  'f(x); /* trailing */',
].join('\n');

test('TypeScript: blocks come from the parse, strings and directives are not prose', () => {
  expect(scriptComments(TS_FIXTURE)).toEqual([
    '\nThe guard refuses a shrink. It names the volume (docs/design.md, section 8).\n\n@default - no limit\n',
    'not a comment in the string, this one is',
    'Two line comments in a row\nare one block (an aside), as in issue 30.',
    'trailing ',
  ]);
});

test('TypeScript: words, sentences, asides, citations and history of a file', () => {
  expect(countFile('x.ts', TS_FIXTURE)).toEqual({
    // Words: 12 and 3 in the doc comment, 9, 15 in the run, 1. Sentences: 2 and the tag, 1, 1, 1.
    words: 40,
    sentences: 6,
    parentheses: 2,
    citations: 1,
    history: ['issue 30'],
  });
});

test('shell: no shebang, no shellcheck directive, a # in quotes or a word is no comment', () => {
  const sh = [
    '#!/bin/bash',
    '# shellcheck disable=SC2034',
    '# The disks first: the array needs them.',
    '# e.g. nvme1n1 and nvme2n1.',
    'echo "#not" ${#list[@]} # counted too',
  ].join('\n');
  expect(hashComments(sh)).toEqual(['The disks first: the array needs them.\ne.g. nvme1n1 and nvme2n1.', 'counted too']);
  expect(countFile('x.sh', sh)).toMatchObject({ words: 13, sentences: 3, parentheses: 0 });
});

test('a code span is one word and hides its parentheses; a call is no aside; "now" counts only opening a sentence', () => {
  expect(countBlock('Call `f(a, b)` here. It runs g(x) now. Now it is done')).toEqual({
    words: 11,
    sentences: 3,
    parentheses: 0,
    citations: 0,
    history: ['Now'],
  });
});

test('an aside naming docs/design.md, an AWS document or another host is a citation; others are not', () => {
  const c = countBlock('Refused (docs/design.md, section 8). Read (github.com/aws/x, a.md) and (AWS\'s guide); but (this) is bare.');
  expect({ parentheses: c.parentheses, citations: c.citations }).toEqual({ parentheses: 4, citations: 3 });
});

test('history: a passive "used to" is no marker, an active one is', () => {
  expect(countBlock('The key is used to name the volume.').history).toEqual([]);
  expect(countBlock('Used to name the volume.').history).toEqual([]);
  expect(countBlock('The guard used to refuse this, as it always did (#12).').history).toEqual(['used to', 'as it always', '#12']);
  expect(countBlock('In the order the messages have always come in.').history).toEqual(['have always']);
});
