/**
 * Encryption of a generated DR operation token to the PGP key of the attempt (`pgp_key`: a
 * base64 binary public key as the service takes it; armored text is accepted too). openpgp is
 * loaded only when a key is given.
 */
export interface PgpRecipient {
  fingerprint: string;
  /** The key as given, kept for the attempt. */
  key: string;
}

async function readKey(text: string) {
  const openpgp = await import('openpgp');
  const t = text.trim();
  return t.startsWith('-----BEGIN PGP')
    ? openpgp.readKey({ armoredKey: t })
    : openpgp.readKey({ binaryKey: new Uint8Array(Buffer.from(t, 'base64')) });
}

/** The recipient of a pgp_key, or undefined when it is not a usable public key. */
export async function pgpRecipient(text: string): Promise<PgpRecipient | undefined> {
  try {
    const key = await readKey(text);
    await key.getEncryptionKey(); // throws when the key cannot encrypt
    return { fingerprint: key.getFingerprint(), key: text };
  } catch {
    return undefined;
  }
}

/** base64 of the binary OpenPGP message holding `plaintext`. */
export async function encryptToPgp(recipient: PgpRecipient, plaintext: string): Promise<string> {
  const openpgp = await import('openpgp');
  const key = await readKey(recipient.key);
  const message = await openpgp.createMessage({ binary: new Uint8Array(Buffer.from(plaintext, 'utf8')) });
  // As Uint8Array: TypeScript 5.9 (the linter's) cannot resolve openpgp's stream types here.
  const encrypted = (await openpgp.encrypt({ message, encryptionKeys: key, format: 'binary' })) as Uint8Array;
  return Buffer.from(encrypted).toString('base64');
}
