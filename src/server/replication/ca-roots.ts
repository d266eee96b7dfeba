import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest } from '../http/reply.js';

/** The PEM texts of ca_file and of the .pem/.crt files in ca_path (none: the system roots apply). */
export async function readCaRoots(caFile: string, caPath: string): Promise<string[]> {
  const pems: string[] = [];
  if (caFile !== '') pems.push(await readPem(caFile, 'ca_file'));
  if (caPath !== '') {
    let names: string[];
    try {
      names = (await readdir(caPath)).filter((n) => /\.(pem|crt)$/i.test(n)).sort();
    } catch (err) {
      throw badRequest(`cannot read ca_path: ${reason(err)}`);
    }
    for (const name of names) pems.push(await readPem(join(caPath, name), 'ca_path'));
  }
  return pems;
}

async function readPem(file: string, field: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw badRequest(`cannot read ${field}: ${reason(err)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw badRequest(`${field}: ${file} holds no PEM certificate`);
  return text;
}

function reason(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
