/**
 * A stand-in FSx endpoint for a handler's real SDK client: an HTTP server on a free loopback port that answers each
 * JSON-protocol call with `answer(target, body)`, with AWS_ENDPOINT_URL and test credentials pointing the SDK at it
 * until `stop`. moto has no FSx DescribeVolumes or UpdateVolume (test/support/fsx-responses/README.md).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

/** The running stand-in: `stop` closes it and puts the environment back. */
export interface FsxHttp {
  stop(): Promise<void>;
}

/** Starts the stand-in; `answer` gets the X-Amz-Target, such as `AWSSimbaAPIService_v20180301.UpdateVolume`. */
export async function startFsxHttp(answer: (target: string, body: Record<string, unknown>) => unknown): Promise<FsxHttp> {
  const saved = { ...process.env };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const reply = answer(String(req.headers['x-amz-target']), JSON.parse(body));
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing',
  });
  return {
    stop: async () => {
      process.env = saved;
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
