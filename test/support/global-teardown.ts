import * as fs from 'fs';
import * as path from 'path';
import { RUN_TMP_PREFIX } from './global-setup';

/** Runs once after the last test file: removes the run's temporary directory that global-setup.ts made. */
export default function globalTeardown(): void {
  const dir = process.env.TMPDIR;
  if (dir && path.basename(dir).startsWith(RUN_TMP_PREFIX)) fs.rmSync(dir, { recursive: true, force: true });
}
