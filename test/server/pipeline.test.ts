import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/server/faults.js';
import { createRequestListener } from '../../src/server/http/pipeline.js';
import { Router } from '../../src/server/http/router.js';
import type { ClusterServices } from '../../src/server/services.js';

/** The request pipeline with a route whose handler fails in an unexpected way. */
let http: Server;
let port: number;
const logs: string[] = [];

beforeAll(async () => {
  const router = new Router([
    {
      pattern: 'boom',
      access: 'public',
      handlers: {
        update: () => {
          throw new Error('database exploded');
        },
      },
    },
  ]);
  const cluster = { name: 't', log: (line: string) => logs.push(line) } as unknown as ClusterServices;
  http = createServer(
    createRequestListener({
      cluster,
      faults: new FaultInjector(),
      resolve: (path) => {
        const match = router.match(path);
        return match ? { kind: 'route', ...match, backendPath: path, routePrefix: '' } : { kind: 'miss', reason: 'unsupported' };
      },
      unrouted: () => [],
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

describe('request pipeline', () => {
  it('answers 500 "internal error" without details and logs the error without the body', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/boom`, { method: 'POST', body: JSON.stringify({ bindpass: 'topsecret' }) });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ errors: ['internal error'] });
    expect(logs.join('\n')).toContain('database exploded');
    expect(logs.join('\n')).toContain('POST /v1/boom');
    expect(logs.join('\n')).not.toContain('topsecret');
  });
});
