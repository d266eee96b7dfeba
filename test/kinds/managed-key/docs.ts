import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Diagnostics } from '../../../src/core/diagnostics.js';
import type { ResolvedDocument } from '../../../src/load/document.js';
import { parseManifest } from '../../../src/load/parse.js';
import { resolveReferences } from '../../../src/load/references.js';
import type { KindContext } from '../../../src/kinds/kind.js';
import { managedKeyKind } from '../../../src/kinds/managed-key/index.js';
import { managedKeySecretPaths } from '../../../src/kinds/managed-key/secrets.js';
import { prepareWithKinds } from '../../../src/validate/pipeline.js';
import type { Prepared } from '../../../src/validate/prepare.js';

export const ctx: KindContext = { clusters: new Map(), prune: false };

export const HEADER = 'apiVersion: lockstep/v1\nkind: ManagedKey\n';

/** A ManagedKey document: name, type, config lines (each indented two spaces), extra top-level lines. */
export function keyDoc(name: string, type: string, config: string[], extra: string[] = []): string {
  return `${HEADER}name: ${name}\ntype: ${type}\nconfig:\n${config.map((l) => `  ${l}`).join('\n')}\n${extra.map((l) => `${l}\n`).join('')}`;
}

export const PKCS11 = ['library: softhsm', 'key_label: signing', 'mechanism: "0x1041"', 'pin: ${env:PIN}', 'token_label: lockstep'];
export const AWS = ['key_type: ECDSA', 'curve: P256', 'kms_key: alias/signing', 'access_key: AKIAEXAMPLE', 'secret_key: ${env:AWS_SECRET}'];
export const AZURE = ['tenant_id: t-1', 'client_id: c-1', 'client_secret: ${env:AZ_SECRET}', 'vault_name: lockstep', 'key_name: signing', 'key_type: RSA-HSM'];
export const GCP = ['credentials: ${env:GCP_CREDENTIALS}', 'crypto_key: signing', 'key_ring: ring', 'project: p1', 'region: us-east1', 'algorithm: EC_SIGN_P256_SHA256'];
export const ENV = { PIN: '1234', AWS_SECRET: 'aws-secret', AZ_SECRET: 'az-secret', GCP_CREDENTIALS: '{"type":"service_account"}' };

/**
 * ManagedKey documents from YAML texts (f0.yaml, f1.yaml, ...), resolved (plaintext secrets
 * allowed) and placed as prepare would: cluster `default`, namespace '' unless given. No schema.
 */
export async function keyDocs(files: string[], env: NodeJS.ProcessEnv = ENV): Promise<ResolvedDocument[]> {
  const out: ResolvedDocument[] = [];
  for (const [i, text] of files.entries()) {
    const diags = new Diagnostics();
    for (const source of parseManifest(text, `f${i}.yaml`, `/tmp/f${i}.yaml`, diags)) {
      const data = (await resolveReferences(source, managedKeySecretPaths(source.value), { allowPlaintextSecrets: true, env }, diags)) as Record<string, unknown>;
      out.push({ source, kind: 'ManagedKey', data: { cluster: 'default', namespace: '', ...data } });
    }
    if (diags.items.length > 0) throw new Error(diags.format().join('\n'));
  }
  return out;
}

/**
 * The whole of prepare (schema, references, placement, rules, desired) over files written to a
 * temp folder as f0.yaml, f1.yaml, ...; diagnostics with the folder left out of paths.
 */
export async function prepareTexts(
  files: string[],
  opts: { env?: NodeJS.ProcessEnv; prune?: boolean; allowPlaintextSecrets?: boolean } = {},
): Promise<{ lines: string[]; prepared: Prepared }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lockstep-mk-'));
  try {
    for (const [i, text] of files.entries()) await writeFile(path.join(dir, `f${i}.yaml`), text);
    const prepared = await prepareWithKinds(
      [dir],
      { allowPlaintextSecrets: opts.allowPlaintextSecrets ?? false, prune: opts.prune ?? false, requireClusters: false, env: { ...ENV, ...opts.env } },
      [managedKeyKind],
    );
    return { lines: prepared.diags.format().map((l) => l.split(`${dir}/`).join('')), prepared };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
