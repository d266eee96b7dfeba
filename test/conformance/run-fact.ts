import { expect } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { activationToken, DR, inSync, member } from '../server/replication/support.js';
import type { Fact, Scenario, Step } from './fact.js';

export interface Answer {
  status: number;
  /** Parsed JSON, or undefined when the answer has no body. */
  body: any;
}

/** Starts the clusters of a scenario, each on its own random port, in memory. */
export async function startScenario(scenario: Scenario): Promise<RunningServer> {
  const common = { port: 0, log: () => undefined, kmsLibraries: { softhsm: '/nonexistent/libsofthsm2.so' }, keyBackends: { env: {} } };
  switch (scenario) {
    case 'single':
      return startServer(common);
    case 'dr-pair': {
      const server = await startServer({ ...common, clusters: ['east', 'west'] });
      const [east, west] = server.clusters.map(member) as [ReturnType<typeof member>, ReturnType<typeof member>];
      expect((await east.api.post(`${DR}/primary/enable`, {})).status).toBe(204);
      const token = await activationToken(east, 'west');
      expect((await west.api.post(`${DR}/secondary/enable`, { token })).status).toBe(204);
      await inSync(east, west);
      return server;
    }
  }
}

/** A cluster a fact's requests go to: the emulator's, or a real server's. */
export interface FactCluster {
  /** `http://host:port/v1` */
  readonly baseUrl: string;
  readonly rootToken: string;
}

export interface Outcome {
  answer: Answer;
  /** Values captured by the steps, by name. */
  captured: ReadonlyMap<string, string>;
}

/** Runs the setup steps and the request of a fact; answers the request's answer. `given`: values known beforehand. */
export async function runFact(server: { readonly clusters: readonly FactCluster[] }, fact: Fact, given: ReadonlyMap<string, string> = new Map()): Promise<Outcome> {
  const captured = new Map<string, string>(given);
  for (const step of fact.setup ?? []) {
    const answer = await send(server.clusters, step, captured);
    const ok = step.okStatus ?? [];
    const fine = ok.length > 0 ? ok.includes(answer.status) : answer.status >= 200 && answer.status < 300;
    if (!fine) throw new Error(`setup ${step.method} ${step.path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { answer: await send(server.clusters, fact.request, captured), captured };
}

async function send(clusters: readonly FactCluster[], step: Step, captured: Map<string, string>): Promise<Answer> {
  const cluster = clusters[step.cluster ?? 0]!;
  const fill = (text: string): string => fillCaptured(text, captured);
  const token = step.token === undefined || step.token === 'root' ? cluster.rootToken : step.token === 'none' ? undefined : captured.get(step.token.captured);
  const headers: Record<string, string> = {};
  if (token !== undefined) headers['X-Vault-Token'] = token;
  for (const [name, value] of Object.entries(step.headers ?? {})) headers[name] = fill(value);
  // A step's own Content-Type (a PATCH's merge patch) is kept; a raw body is sent as it is.
  let body: string | undefined = step.rawBody;
  if (step.body !== undefined) body = fill(JSON.stringify(step.body));
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(`${cluster.baseUrl}/${fill(step.path)}`, { method: step.method, headers, body });
  const text = await res.text();
  const answer: Answer = { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  for (const [name, path] of Object.entries(step.capture ?? {})) {
    const value = valueAt(answer.body, path);
    if (typeof value !== 'string') throw new Error(`${step.method} ${step.path}: no string at ${path} to capture as ${name}`);
    captured.set(name, value);
  }
  return answer;
}

function fillCaptured(text: string, captured: ReadonlyMap<string, string>): string {
  return text.replace(/<<([a-z0-9_.-]+)>>/gi, (_, name: string) => {
    const value = captured.get(name);
    if (value === undefined) throw new Error(`nothing captured as ${name}`);
    return value;
  });
}

/** The expected shape with captured values filled into its strings (matchers are left alone). */
function filled(shape: unknown, captured: ReadonlyMap<string, string>): unknown {
  if (typeof shape === 'string') return fillCaptured(shape, captured);
  if (Array.isArray(shape)) return shape.map((item) => filled(item, captured));
  if (shape !== null && typeof shape === 'object' && Object.getPrototypeOf(shape) === Object.prototype) {
    return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, filled(v, captured)]));
  }
  return shape;
}

/** The value at a dotted path (`data.config.allowed_managed_keys`); undefined when any part is missing. */
export function valueAt(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Whether the dotted path exists in the value (a present null counts). */
export function has(value: unknown, path: string): boolean {
  const parts = path.split('.');
  const parent = parts.length === 1 ? value : valueAt(value, parts.slice(0, -1).join('.'));
  return parent !== null && typeof parent === 'object' && Object.prototype.hasOwnProperty.call(parent, parts.at(-1)!);
}

/** Checks an answer against a fact's expectation. */
export function checkAnswer(fact: Fact, { answer, captured }: Outcome): void {
  const where = `${fact.request.method} ${fact.request.path} → ${answer.status} ${JSON.stringify(answer.body)}`;
  expect(answer.status, where).toBe(fact.expect.status);
  if (fact.expect.noBody) expect(answer.body, where).toBeUndefined();
  if (fact.expect.body !== undefined) expect(answer.body, where).toMatchObject(filled(fact.expect.body, captured) as object);
  for (const path of fact.expect.absent ?? []) expect(has(answer.body, path), `${path} must be absent: ${where}`).toBe(false);
}
