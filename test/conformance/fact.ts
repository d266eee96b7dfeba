/**
 * A conformance fact: one request to the emulator, the status and the answer's shape the real
 * service gives, and where in the real service's source or documentation that comes from
 * (repository hashicorp/vault). Facts are data; conformance.test.ts runs them all.
 *
 * Values captured from earlier answers are written `<<name>>` in paths, bodies and headers;
 * facts that declare `directory: true` also get the test LDAP directory's settings as
 * `<<ldap.url>>`, `<<ldap.binddn>>`, `<<ldap.bindpass>>`, `<<ldap.userdn>>`, `<<ldap.groupdn>>`.
 */

export type Token =
  /** The cluster's root token (the default). */
  | 'root'
  /** No token at all. */
  | 'none'
  /** A token captured earlier (`capture`). */
  | { captured: string };

export interface Step {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'LIST';
  /** After /v1/, may carry a query. */
  path: string;
  body?: unknown;
  /** A body sent as is, instead of `body` as JSON (a body that is not JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  token?: Token;
  /** Which cluster of the scenario answers (default the first). */
  cluster?: number;
  /** Names for values of the answer, by dotted path: `{ child: 'auth.client_token' }`. */
  capture?: Record<string, string>;
  /** A setup step must answer with one of these (default any 2xx). */
  okStatus?: number[];
}

export interface Expectation {
  status: number;
  /**
   * The answer's shape: every member given must match (deeply, members not given are free);
   * values may be vitest asymmetric matchers (`expect.any(Number)`).
   */
  body?: unknown;
  /** Dotted paths that must be absent from the answer. */
  absent?: string[];
  /** The answer has no body at all (204, HEAD). */
  noBody?: true;
}

/** The clusters a fact runs against. */
export type Scenario =
  /** One fresh cluster. */
  | 'single'
  /** Two clusters: the first a DR primary, the second its DR secondary, in sync. */
  | 'dr-pair';

export interface Fact {
  /** What the service does, in a sentence. */
  says: string;
  /** File or doc page in hashicorp/vault this follows. */
  source: string;
  scenario?: Scenario;
  /** Needs the test LDAP directory (slapd, started once for all facts that need it). */
  directory?: true;
  setup?: Step[];
  request: Step;
  expect: Expectation;
}
