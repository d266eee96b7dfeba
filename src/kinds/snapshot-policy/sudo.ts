import { isApiError } from '../../client/errors.js';
import { SNAPSHOT_AUTO_PATH } from './addresses.js';

/**
 * Every snapshot-auto endpoint but the status read needs the sudo capability: a 403 from them
 * is almost always a token without it, and saying so beats a bare "permission denied".
 * Other errors pass through unchanged (their messages are already secret-free).
 */
function explainSudo(err: unknown, cluster: string): unknown {
  if (!isApiError(err) || err.status !== 403) return err;
  return new Error(
    `${cluster}: managing snapshot policies needs a token with the sudo capability on ${SNAPSHOT_AUTO_PATH} (the server answered ${err.method} ${err.url}: 403 permission denied)`,
  );
}

/** Runs a snapshot-auto call, turning a 403 into the sudo explanation. */
export async function withSudoHint<T>(cluster: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw explainSudo(err, cluster);
  }
}
