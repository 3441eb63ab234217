/**
 * The client mount script's record checker, lib/scripts/client_mount.py, asked from a test about many records in one
 * run of the venv's python: what a node would say of each, with the node's own state left out (no directory is looked
 * at, and every FSx DNS name resolves inside the allowed servers). Its allowlist of mount options is read back too.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { venvBin } from './venv';

/** One record to check, with the mount roots the node is run with. */
export interface RecordQuestion {
  readonly record: { server: string; exportPath: string; mountPoint: string; fsType: string; options: string; backend?: string };
  readonly roots: readonly string[];
}

/** The option allowlist as the checker holds it: option names by fsType, the refused ones and the exclusive groups. */
export interface ClientAllowlist {
  readonly valued: Record<string, string[]>;
  readonly flags: Record<string, string[]>;
  readonly refused: string[];
  readonly exclusive: string[][];
  /** Flags allowed for one backend only. */
  readonly backendFlags: Record<string, string[]>;
  /** Each backend's narrowed options, with the NFS versions among 3, 4, 4.0, 4.1 and 4.2 each takes. */
  readonly backendValued: Record<string, Record<string, string[]>>;
}

// The checker less its last statement, the dispatch on sys.argv, as test/python/test_client_mount.py loads it.
const PROGRAM = `
import ast, json, sys, types
path = sys.argv[1]
tree = ast.parse(open(path).read(), path)
tree.body.pop()
m = types.ModuleType('client_mount')
exec(compile(tree, path, 'exec'), m.__dict__)
m.resolve = lambda name: ['10.0.0.5']
m.path_problem_on_node = lambda mp: (None, [])
allowed = [m.ipaddress.IPv4Network('0.0.0.0/0')]
questions = json.load(sys.stdin)
answers = []
for q in questions:
    rec = dict(q['record'])
    rec['fstab'] = m.fstab_line(rec, rec['options'])
    answers.append(m.problem(rec, allowed, q['roots']))
allowlist = {'valued': {fs: sorted(v) for fs, v in m.VALUED.items()}, 'flags': {fs: sorted(v) for fs, v in m.FLAGS.items()},
             'refused': sorted(m.REFUSED), 'exclusive': [list(g) for g in m.EXCLUSIVE],
             'backendFlags': {b: sorted(v) for b, v in m.BACKEND_FLAGS.items()},
             'backendValued': {b: {n: [x for x in ('3', '4', '4.0', '4.1', '4.2') if r(x)] for n, r in v.items()} for b, v in m.BACKEND_VALUED.items()}}
print(json.dumps({'answers': answers, 'allowlist': allowlist}))
`;

/** The checker's problem with each record (null: the node mounts it), and its allowlist. */
export function askClientChecker(questions: readonly RecordQuestion[]): { answers: (string | null)[]; allowlist: ClientAllowlist } {
  const script = path.join(__dirname, '..', '..', 'lib', 'scripts', 'client_mount.py');
  const r = spawnSync(path.join(venvBin(), 'python'), ['-c', PROGRAM, script], {
    input: JSON.stringify(questions),
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`client_mount.py could not be asked (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as { answers: (string | null)[]; allowlist: ClientAllowlist };
}
