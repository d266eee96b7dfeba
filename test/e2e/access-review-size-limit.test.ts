import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { writeManifestFolder } from '../support/e2e.js';
import { boundLdapAuth, useLdapE2e } from '../support/ldap-e2e.js';
import { CREW, planetExpressLdif } from '../support/planet-express.js';
import { ldapSettingsFor, USERS } from '../support/slapd.js';

/**
 * #23.6: the directory's size limit is kept. slapd answers at most 4 entries a search (every
 * page counted); the review's enumeration of the 13 directory users is then split by the
 * names' first characters, and still finds every one.
 */
const ldap = useLdapE2e({}, { ldif: planetExpressLdif(), sizeLimit: 'size.soft=4 size.hard=4' });

describe('#23.6 a directory with a size limit', () => {
  it('every user is reviewed, in searches the limit allows', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'lockstep-access-limit-'));
    try {
      const m = await writeManifestFolder(path.join(work, 'm'), {
        'ldap.yaml': `${boundLdapAuth(ldap.slapd)}  userattr: uid
  token_policies: [base]
groups:
  crew: { policies: [delivery] }
`,
      });
      const r = await runCli(['plan', m, '--format', 'json', '--access-review', 'require'], { env: { ...ldap.cluster.env, LDAP_BINDPASS: ldapSettingsFor(ldap.slapd).bindpass } });
      expect(r.code, r.stderr).toBe(0);
      const review = (JSON.parse(r.stdout) as { accessChanges: Array<{ policy: string; gained: string[] }> }).accessChanges;
      const everyone = [...Object.values(USERS), ...Object.values(CREW)].map((u) => u.uid).sort();
      expect(review.find((c) => c.policy === 'base')?.gained).toEqual(everyone);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
