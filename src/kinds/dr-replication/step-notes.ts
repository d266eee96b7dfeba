import { tokenSourceFor, type TokenAvailability } from './secrets.js';
import { listNames } from './sequence-builder.js';
import { needsOperationToken, type Step } from './steps.js';

/** The plain sentences shown under a step: what it does and, for risky ones, what it costs. */
export function stepNotes(step: Step, tokens: TokenAvailability): string[] {
  const notes = [whatItDoes(step)];
  if (step.op === 'promote' && step.force) notes.push('force: the safety checks are skipped; data not yet replicated to it may be lost');
  if (step.op === 'promote' && step.unreachable.length > 0) {
    const one = step.unreachable.length === 1;
    notes.push(
      `${listNames(step.unreachable)} cannot be seen: ${one ? 'if it is an old primary, it' : 'an old primary among them'} must be demoted when it returns (the next plan does it first)`,
    );
  }
  if (needsOperationToken(step)) notes.push(tokenNote(step.cluster, tokens));
  return notes;
}

function whatItDoes(step: Step): string {
  switch (step.op) {
    case 'enable-primary':
      return `${step.cluster} becomes the DR primary; secondaries may connect to it`;
    case 'demote':
      return `${step.cluster} stops being DR primary first (never two primaries), once ${step.newPrimary || 'the new primary'} has received its latest writes; it keeps its data and cluster id and later follows ${step.newPrimary || 'the new primary'} without a wipe`;
    case 'disable-primary':
      return `${step.cluster} is the DR primary of another replication set: disabling it orphans that set's secondaries, and it is wiped when it joins this set`;
    case 'promote':
      return `${step.cluster} becomes the DR primary`;
    case 'generate-public-key':
      return `${step.cluster} makes a key pair: its activation token is encrypted to the public key, so no response wrapping is needed`;
    case 'secondary-token':
      return `activation token for ${step.secondary} (id "${step.secondary}", TTL ${step.ttlSeconds}s), held in memory for the next steps only`;
    case 'enable-secondary':
      return `wipes all data on ${step.cluster}: it becomes a DR secondary of ${step.primary}`;
    case 'update-primary':
      return `${step.cluster} follows ${step.primary} from now on; no data is wiped`;
    case 'revoke-secondary':
      return `the secondary "${step.secondaryId}" is disconnected from ${step.cluster} at once`;
    case 'disable-secondary':
      return `${step.cluster} leaves DR replication: its replicated data is orphaned and joining a set again wipes it`;
    case 'delete-operation-token':
      return `revokes the DR operation token generated on ${step.cluster} from the key shares (deleted as soon as the step that used it ended; this step makes sure)`;
  }
}

function tokenNote(cluster: string, tokens: TokenAvailability): string {
  return tokenSourceFor(cluster, tokens) === 'given'
    ? `uses the DR operation token given for ${cluster} (operationTokens.${cluster}); it is yours and is not deleted`
    : `uses a DR operation token generated on ${cluster} from the key shares; it is deleted right after this step`;
}
