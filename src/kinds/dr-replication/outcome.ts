import { isApiError, isTransportError } from '../../client/errors.js';
import { follows, type ObservedCluster } from './observed.js';
import type { Step } from './steps.js';

/** Transport failures that mean the request never reached the server. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Did a request fail in a way that leaves its effect unknown (connection reset, timeout, a 5xx
 * from somewhere between)? Then the step's status is read to decide, never blindly retried.
 */
export function isUncertain(err: unknown): boolean {
  if (isTransportError(err)) return err.code === undefined || !NOT_SENT.has(err.code);
  return isApiError(err) && err.status >= 500;
}

/**
 * Whether a state-changing step took effect, judged from the statuses read after an uncertain
 * failure; undefined for steps whose effect the status cannot show (their answer is the result).
 */
export function tookEffect(step: Step, self: ObservedCluster, primary: ObservedCluster | undefined): boolean | undefined {
  switch (step.op) {
    case 'enable-primary':
    case 'promote':
      return self.state === 'primary';
    case 'demote':
      return self.state === 'secondary';
    case 'disable-primary':
    case 'disable-secondary':
      return self.state === 'disabled';
    case 'enable-secondary':
      return self.state === 'secondary' && primary?.state === 'primary' && self.clusterId === primary.clusterId;
    case 'update-primary':
      return primary !== undefined && follows(step.cluster, self, primary);
    case 'revoke-secondary':
      return self.state === 'primary' && !self.knownSecondaries.includes(step.secondaryId);
    case 'generate-public-key':
    case 'secondary-token':
    case 'delete-operation-token':
      return undefined;
  }
}
