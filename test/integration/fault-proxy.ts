import * as http from 'http';
import type { AddressInfo } from 'net';

/** A canned HTTP answer the proxy gives instead of forwarding. */
export interface CannedResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * What to do with one request. Answer it; forward it and rewrite the answer; forward it and give another answer, as for
 * a call that went through whose answer was lost; never answer it, as a stalled connection that the client's timeout or
 * `stop` closes; or, when undefined, forward it.
 */
export type FaultAction =
  | { respond: CannedResponse }
  | { rewrite: (body: string) => string }
  | { forwardThen: CannedResponse }
  | { stall: true }
  | undefined;

/** Decides per request; `operation` is the API name, e.g. `PutParameter` or `DescribeInstances`. */
export type FaultRule = (operation: string) => FaultAction;

export interface FaultProxy {
  readonly endpoint: string;
  /** Operation of every request received since the last `reset`, in order, answered or forwarded. */
  readonly operations: string[];
  /** Installs a new rule and clears `operations`. */
  reset(rule?: FaultRule): void;
  stop(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of moto that injects faults, throttling and 5xx, or rewrites answers, so the handler's
 * real SDK clients meet them over real HTTP. It works for the JSON protocol, by X-Amz-Target, and the query protocol,
 * by `Action=`.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const operations: string[] = [];
  let rule: FaultRule = () => undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = operationOf(req, body.toString());
      operations.push(operation);
      const action = rule(operation);
      if (action && 'stall' in action) return;
      if (action && 'respond' in action) {
        res.writeHead(action.respond.status, { 'content-type': action.respond.contentType });
        res.end(action.respond.body);
        return;
      }
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (up) => {
          const out: Buffer[] = [];
          up.on('data', (c: Buffer) => out.push(c));
          up.on('end', () => {
            if (action && 'forwardThen' in action) {
              res.writeHead(action.forwardThen.status, { 'content-type': action.forwardThen.contentType });
              res.end(action.forwardThen.body);
              return;
            }
            let answer = Buffer.concat(out);
            const headers = { ...up.headers };
            if (action && 'rewrite' in action) {
              answer = Buffer.from(action.rewrite(answer.toString()));
              delete headers['transfer-encoding'];
              headers['content-length'] = String(answer.length);
            }
            res.writeHead(up.statusCode ?? 502, headers);
            res.end(answer);
          });
        },
      );
      forward.on('error', (err) => {
        res.writeHead(502);
        res.end(String(err));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    operations,
    reset: (next = () => undefined) => {
      rule = next;
      operations.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function operationOf(req: http.IncomingMessage, body: string): string {
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') return target.split('.').pop() ?? target;
  return new URLSearchParams(body).get('Action') ?? `${req.method} ${req.url}`;
}

/** SSM throttling over the JSON protocol, as the service sends it. */
export const SSM_THROTTLED: CannedResponse = {
  status: 400,
  contentType: 'application/x-amz-json-1.1',
  body: JSON.stringify({ __type: 'ThrottlingException', message: 'Rate exceeded' }),
};

/** SSM over the JSON protocol: no such parameter. */
export const SSM_NOT_FOUND: CannedResponse = {
  status: 400,
  contentType: 'application/x-amz-json-1.1',
  body: JSON.stringify({ __type: 'ParameterNotFound', message: '' }),
};

/** SSM internal error over the JSON protocol. */
export const SSM_INTERNAL_ERROR: CannedResponse = {
  status: 500,
  contentType: 'application/x-amz-json-1.1',
  body: JSON.stringify({ __type: 'InternalServerError', message: 'We encountered an internal error.' }),
};

/** EC2 throttling over the query protocol, as the service sends it. */
export const EC2_THROTTLED: CannedResponse = {
  status: 503,
  contentType: 'text/xml;charset=UTF-8',
  body:
    '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>RequestLimitExceeded</Code>' +
    '<Message>Request limit exceeded.</Message></Error></Errors><RequestID>fault-proxy</RequestID></Response>',
};

/** Rewrites a DescribeInstances answer so every running instance reads as pending. */
export function asPending(body: string): string {
  return body.replace(
    /<instanceState>\s*<code>16<\/code>\s*<name>running<\/name>\s*<\/instanceState>/g,
    '<instanceState><code>0</code><name>pending</name></instanceState>',
  );
}

/** A rule that applies `action` to the first `times` requests of `operation` and forwards the rest. */
export function firstN(operation: string, times: number, action: NonNullable<FaultAction>): FaultRule {
  let seen = 0;
  return (op) => {
    if (op !== operation) return undefined;
    seen += 1;
    return seen <= times ? action : undefined;
  };
}

/** CloudFormation throttling over the query protocol, as the service sends it. */
export const CFN_THROTTLED: CannedResponse = {
  status: 400,
  contentType: 'text/xml',
  body:
    '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type>' +
    '<Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>fault-proxy</RequestId></ErrorResponse>',
};

/** CloudFormation internal error over the query protocol. */
export const CFN_INTERNAL_ERROR: CannedResponse = {
  status: 500,
  contentType: 'text/xml',
  body:
    '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Receiver</Type>' +
    '<Code>InternalFailure</Code><Message>We encountered an internal error.</Message></Error>' +
    '<RequestId>fault-proxy</RequestId></ErrorResponse>',
};

/**
 * Rewrites a DescribeStacks answer so every stack reads as `status`, since moto never rolls a stack back and cannot
 * answer UPDATE_ROLLBACK_IN_PROGRESS itself.
 */
export function withStackStatus(status: string): (body: string) => string {
  return (body) => body.replace(/<StackStatus>[A-Z_]+<\/StackStatus>/g, `<StackStatus>${status}</StackStatus>`);
}
