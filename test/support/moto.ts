import { spawn, type ChildProcess } from 'child_process';
import * as http from 'http';
import * as path from 'path';
import { venvBin } from './venv';

/**
 * A timeout for a `beforeAll` that starts moto: the first run on a fresh machine builds the Python venv with pip
 * install before moto starts, which can take minutes.
 */
export const MOTO_SETUP_TIMEOUT_MS = 300_000;

/** A running moto server, an AWS API emulator. */
export interface Moto {
  /** Base URL for AWS SDK clients, e.g. `http://127.0.0.1:41234`; use it as AWS_ENDPOINT_URL. */
  readonly endpoint: string;
  readonly port: number;
  /** Stops the server, by SIGTERM and then SIGKILL after 5 s, and waits until it has exited. */
  stop(): Promise<void>;
}

export interface StartMotoOptions {
  /**
   * Address to bind. `0.0.0.0` makes moto reachable from other hosts. The default is usually enough: a VM on qemu's
   * user network reaches the host's loopback as 10.0.2.2 anyway.
   * @default '127.0.0.1'
   */
  readonly host?: string;
  /** @default 60000, not counting a first call that builds the venv */
  readonly startTimeoutMs?: number;
}

/**
 * Starts `moto_server` from the project's venv on a free port; test/support/venv.sh creates the venv if it is missing.
 * The OS chooses the port, by `-p 0`, and it is read back from the server's startup line. So two test files starting
 * moto at once never race for a port.
 */
export async function startMoto(options: StartMotoOptions = {}): Promise<Moto> {
  const host = options.host ?? '127.0.0.1';
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const bin = path.join(venvBin(), 'moto_server');
  const child = spawn(bin, ['-H', host, '-p', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = (): Promise<void> => stopChild(child);
  const onExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', onExit);
  try {
    const port = await readPort(child, timeoutMs);
    const connectHost = host === '0.0.0.0' ? '127.0.0.1' : host;
    const endpoint = `http://${connectHost.includes(':') ? `[${connectHost}]` : connectHost}:${port}`;
    await waitReady(endpoint, timeoutMs);
    return {
      endpoint,
      port,
      stop: async () => {
        process.removeListener('exit', onExit);
        await stop();
      },
    };
  } catch (err) {
    process.removeListener('exit', onExit);
    await stop();
    throw err;
  }
}

/** Environment for AWS SDK clients talking to moto: fake credentials, a region, the endpoint. */
export function motoEnv(endpoint: string, region = 'us-east-1'): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_SESSION_TOKEN: 'test',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

function readPort(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`moto_server did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      // Werkzeug prints " * Running on http://127.0.0.1:PORT" once the socket is listening.
      const m = /Running on https?:\/\/\S+?:(\d+)/.exec(output);
      if (m) done(Number(m[1]));
    };
    const onExit = (code: number | null): void =>
      fail(new Error(`moto_server exited (code ${code}):\n${output}`));
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', fail);
      // Keep draining the pipes so moto never blocks on a full buffer.
      child.stdout?.resume();
      child.stderr?.resume();
    };
    function done(port: number): void {
      cleanup();
      resolve(port);
    }
    function fail(err: Error): void {
      cleanup();
      reject(err);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', fail);
  });
}

async function waitReady(endpoint: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const status = await httpStatus(`${endpoint}/moto-api/`);
      if (status < 500) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`moto at ${endpoint} did not answer within ${timeoutMs} ms (last: ${last})`);
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.setTimeout(2_000, () => req.destroy(new Error('timeout')));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killTimer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
