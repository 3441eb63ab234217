// The bootstrap's growth by added volumes (issue 46, item 2): storage-bootstrap-array.sh's added_disks and
// extend_segment, run by bash with LVM's commands as recording stubs. The VM tests run them on real LVM.
import * as path from 'path';
import { SCRIPTS_DIR, bash } from '../support/bootstrap-fixtures';

/**
 * Runs `call` after the array part, with DISKS the given disks and stubs for LVM: `pvs` reports ALLOC (allocated
 * extents) and SIZE (extents) per disk, `lvs` the first segment's WIDTH, `vgs` PVS disks in the VG. Writers print
 * `CALL <command> <args>`; `die` prints `DIE <message>` and exits 3.
 */
function run(call: string, disks: Record<string, { alloc: number; size: number }>, width: number, pvCount = 0) {
  const names = Object.keys(disks);
  const script = [
    `. '${path.join(SCRIPTS_DIR, 'storage-bootstrap-array.sh')}'`,
    'die() { echo "DIE $*"; exit 3; }',
    'log() { :; }',
    'declare -A ALLOC SIZE',
    ...names.map((d) => `ALLOC[${d}]=${disks[d].alloc} SIZE[${d}]=${disks[d].size}`),
    `DISKS=(${names.join(' ')}) VG=vg LV=lv LVM=() STORAGE_STRIPE_KIB=256`,
    'pvs() { local dev=${*: -1}; case $* in *pv_pe_alloc_count*) echo "  ${ALLOC[$dev]}" ;; *) echo "  ${SIZE[$dev]}" ;; esac; }',
    `lvs() { printf '  ${width}\\n  ${width}\\n'; }`,
    `vgs() { echo "  ${pvCount} 0"; }`,
    'classify() { if ((${ALLOC[$1]} > 0)); then echo "ours uuid id"; else echo blank; fi; }',
    'vgextend() { echo "CALL vgextend $*"; }',
    'lvextend() { echo "CALL lvextend $*"; }',
    'vgchange() { :; }',
    call,
  ].join('\n');
  const r = bash(script);
  return { status: r.status, calls: r.stdout.trim().split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

describe('extend_segment: disks of the VG the LV does not use yet become its next segment', () => {
  test('two unused after two striped: a segment striped 2 wide over them, as long as the smaller allows', () => {
    const r = run('extend_segment', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 0, size: 60 }, d: { alloc: 0, size: 50 } }, 2);
    expect(r.calls).toEqual(['CALL lvextend -i 2 -I 256k -l +100 vg/lv c d']);
    expect(r.status).toBe(0);
  });

  test('a one-disk LV (linear, as lvcreate makes it) takes an added disk linear too', () => {
    const r = run('extend_segment', { a: { alloc: 100, size: 100 }, b: { alloc: 0, size: 100 } }, 1);
    expect(r.calls).toEqual(['CALL lvextend -l +100 vg/lv b']);
  });

  test('a re-run, every disk in use: nothing is called', () => {
    const r = run('extend_segment', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 50, size: 50 }, d: { alloc: 50, size: 50 } }, 2);
    expect(r.calls).toEqual([]);
    expect(r.status).toBe(0);
  });

  test('one unused on a stripe 2 wide: refused, nothing extended', () => {
    const r = run('extend_segment', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 0, size: 50 } }, 2);
    expect(r.status).toBe(3);
    expect(r.calls).toEqual([expect.stringMatching(/^DIE 1 disk\(s\) of vg unused by vg\/lv \(c\): .*not a multiple of its stripe width 2; nothing was changed/)]);
  });

  test('unused disks that are not the last ones: refused, so the first segment keeps its disks and order', () => {
    const r = run('extend_segment', { a: { alloc: 0, size: 100 }, b: { alloc: 0, size: 100 }, c: { alloc: 100, size: 100 }, d: { alloc: 100, size: 100 } }, 2);
    expect(r.status).toBe(3);
    expect(r.calls).toEqual([expect.stringMatching(/^DIE 2 disk\(s\) of vg unused by vg\/lv \(a b\): not the last ones/)]);
  });
});

describe('added_disks: blank disks after the array join its VG only in a multiple of the stripe width', () => {
  test('2 -> 4 on a stripe 2 wide: the two new disks join the VG', () => {
    const r = run('added_disks 2 && echo ok', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 0, size: 50 }, d: { alloc: 0, size: 50 } }, 2, 2);
    expect(r.calls).toEqual(['CALL vgextend vg c d', 'ok']);
  });

  test('2 -> 3 on a stripe 2 wide: false, nothing written', () => {
    const r = run('added_disks 2 || echo refused', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 0, size: 50 } }, 2, 2);
    expect(r.calls).toEqual(['refused']);
  });

  test('the VG spans more disks than are ours here (one missing): false, nothing written', () => {
    const r = run('added_disks 2 || echo refused', { a: { alloc: 100, size: 100 }, b: { alloc: 100, size: 100 }, c: { alloc: 0, size: 50 }, d: { alloc: 0, size: 50 } }, 2, 3);
    expect(r.calls).toEqual(['refused']);
  });
});
