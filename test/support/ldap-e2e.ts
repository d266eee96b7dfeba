import { runCli, type CliResult } from './cli.js';
import { useForFile } from './file-scoped.js';
import { startTestServer, type TestCluster } from './server.js';
import { ldapSettingsFor, startSlapd, type Slapd, type SlapdOptions } from './slapd.js';

/** The test directory and an emulator, shared by the tests of one file. */
export interface LdapE2e {
  readonly slapd: Slapd;
  readonly cluster: TestCluster;
  /** The built CLI against `c` (the file's cluster by default), LDAP_BINDPASS the directory's service account password. */
  cli: (args: string[], c?: TestCluster) => Promise<CliResult>;
}

/**
 * Starts the slapd test directory and an emulator before the file's tests (slapd may take
 * seconds) and stops them after; `env` is added to every CLI run (other kinds' secrets),
 * `directory` says what slapd holds besides its default people (extra LDIF, a size limit).
 */
export function useLdapE2e(env: Record<string, string> = {}, directory: SlapdOptions = {}): LdapE2e {
  const started = useForFile(
    async () => {
      const slapd = await startSlapd(directory);
      try {
        return { slapd, cluster: await startTestServer() };
      } catch (err) {
        await slapd.stop();
        throw err;
      }
    },
    async ({ slapd, cluster }) => {
      await cluster.server.close();
      await slapd.stop();
    },
    60_000,
  );
  return {
    get slapd() {
      return started().slapd;
    },
    get cluster() {
      return started().cluster;
    },
    cli: (args, c) => runCli(args, { env: { ...(c ?? started().cluster).env, LDAP_BINDPASS: ldapSettingsFor(started().slapd).bindpass, ...env } }),
  };
}

/**
 * An LdapAuth document for a directory nobody connects to (plan and apply never bind): a config
 * with a bindpass from `${env:LDAP_BINDPASS}`, and one group; more lines may follow.
 */
export const EXAMPLE_LDAP_AUTH = `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ldap://ldap.example.com
  binddn: cn=svc,dc=example,dc=com
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ou=people,dc=example,dc=com
groups:
  admins: { policies: [admin] }
`;

/**
 * The head of an LdapAuth document bound to `slapd` as its service account (bindpass from
 * `${env:LDAP_BINDPASS}`): url, binddn, bindpass, userdn; more config lines may follow.
 */
export function boundLdapAuth(slapd: Slapd): string {
  const s = ldapSettingsFor(slapd);
  return `apiVersion: lockstep/v1
kind: LdapAuth
config:
  url: ${s.url}
  binddn: ${s.binddn}
  bindpass: \${env:LDAP_BINDPASS}
  userdn: ${s.userdn}
`;
}
