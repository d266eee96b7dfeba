/** A throwaway CA and a server certificate for the HTTPS fake, made with the openssl CLI. */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Pki {
  caCert: string;
  cert: string;
  key: string;
}

/** Server certificate for localhost, 127.0.0.1 and every `*.<vaultDomain>`. */
export async function makePki(dir: string, vaultDomain: string): Promise<Pki> {
  const p = (f: string) => join(dir, f);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '2', '-subj', '/CN=lockstep fake key vault CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', ...ec, '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', '/CN=localhost']);
  await writeFile(p('ext.cnf'), `subjectAltName=DNS:localhost,DNS:*.${vaultDomain},IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  await run('openssl', ['x509', '-req', '-in', p('server.csr'), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial',
    '-out', p('server.pem'), '-days', '2', '-extfile', p('ext.cnf')]);
  const [caCert, cert, key] = await Promise.all([readFile(p('ca.pem'), 'utf8'), readFile(p('server.pem'), 'utf8'), readFile(p('server.key'), 'utf8')]);
  return { caCert, cert, key };
}
