import type { ApiResponse, ClusterClient } from '../../client/types.js';
import type { DesiredResource } from '../../core/resource.js';
import type { Secret } from '../../core/secret.js';
import type { ApplyContext } from '../kind.js';
import { drPath } from './addresses.js';
import { awaitCaughtUp } from './catch-up.js';
import { deleteOperationToken, generateOperationToken } from './operation-token.js';
import { isUncertain, tookEffect } from './outcome.js';
import type { DrRunStore } from './run-store.js';
import { givenOperationToken, keySharesOf } from './secrets.js';
import { readStatus } from './status-read.js';
import { observedFromAttrs } from './status.js';
import { endpointOf, stepAddress, type Step } from './steps.js';
import type { SecondaryOptions } from './types.js';

/**
 * Sends one step's request(s). Every POST is sent once (DR calls are not idempotent); when its
 * outcome is uncertain the status decides whether the step took effect.
 */
export async function executeStep(step: Step, desired: DesiredResource | undefined, ctx: ApplyContext, store: DrRunStore): Promise<void> {
  const client = ctx.clients.get(step.cluster);
  const post = (body: Record<string, unknown>): Promise<ApiResponse> => client.write(drPath(endpointOf(step)), body);
  switch (step.op) {
    case 'enable-primary':
      return changeState(step, ctx, () => post(omitEmpty({ primary_cluster_addr: step.primaryClusterAddr })));
    case 'demote':
      // A planned failover: the cluster to be promoted first gets everything this one wrote.
      if (step.newPrimary) await awaitCaughtUp(step.cluster, client, step.newPrimary, ctx.clients.get(step.newPrimary));
      return changeState(step, ctx, () => post({}));
    case 'disable-primary':
      return changeState(step, ctx, () => post({}));
    case 'promote':
      return withOperationToken(step.cluster, desired, ctx, store, (token) =>
        changeState(step, ctx, () =>
          post({ dr_operation_token: token, ...omitEmpty({ primary_cluster_addr: step.primaryClusterAddr }), ...(step.force ? { force: true } : {}) }),
        ),
      );
    case 'generate-public-key': {
      const key = (await post({})).data?.['public_key'];
      if (typeof key !== 'string' || key === '') throw new Error(`${step.cluster} answered generate-public-key without a public_key`);
      store.setPublicKey(step.cluster, key);
      return;
    }
    case 'secondary-token':
      return issueActivationToken(step, client, store);
    case 'enable-secondary': {
      const token = activationToken(step.cluster, store);
      return changeState(step, ctx, () => post({ token, ...omitEmpty(step.options) }));
    }
    case 'update-primary': {
      const token = activationToken(step.cluster, store);
      return withOperationToken(step.cluster, desired, ctx, store, (operationToken) =>
        changeState(step, ctx, () => post({ dr_operation_token: operationToken, token, ...omitEmpty(step.options) })),
      );
    }
    case 'revoke-secondary':
      return changeState(step, ctx, () => post({ id: step.secondaryId }));
    case 'disable-secondary':
      return withOperationToken(step.cluster, desired, ctx, store, (token) => changeState(step, ctx, () => post({ dr_operation_token: token })));
    case 'delete-operation-token': {
      const token = store.generated(step.cluster);
      if (!token) return; // already deleted when the step that used it ended
      await deleteOperationToken(client, token);
      store.forgetGenerated(step.cluster);
      return;
    }
  }
}

/** secondary-token with the secondary's public key: the token comes back encrypted to it. */
async function issueActivationToken(step: Extract<Step, { op: 'secondary-token' }>, client: ClusterClient, store: DrRunStore): Promise<void> {
  const publicKey = store.publicKey(step.secondary);
  if (!publicKey) throw new Error(`no public key from ${step.secondary}: its generate-public-key step must run earlier in the same apply`);
  const res = await client.write(drPath(endpointOf(step)), { id: step.secondary, ttl: `${step.ttlSeconds}s`, secondary_public_key: publicKey });
  const wrapInfo = res.body?.['wrap_info'];
  const wrapped = wrapInfo !== null && typeof wrapInfo === 'object' && !Array.isArray(wrapInfo) ? wrapInfo['token'] : undefined;
  const token = res.data?.['token'] ?? wrapped;
  if (typeof token !== 'string' || token === '') throw new Error(`${step.cluster} issued no activation token for ${step.secondary}`);
  store.setActivation(step.secondary, store.secret(token, `activation:${step.secondary}`));
}

function activationToken(secondary: string, store: DrRunStore): Secret {
  const token = store.takeActivation(secondary);
  if (!token) throw new Error(`no activation token for ${secondary}: its secondary-token step must run earlier in the same apply`);
  return token;
}

/**
 * The step's DR operation token: the one given for the cluster, or one generated from the key
 * shares for this step only and deleted as soon as it ends (whatever the outcome). A delete
 * that fails leaves it in the run store: the plan's delete step (or the failure clean-up)
 * tries again.
 */
async function withOperationToken(
  cluster: string,
  desired: DesiredResource | undefined,
  ctx: ApplyContext,
  store: DrRunStore,
  use: (token: Secret) => Promise<void>,
): Promise<void> {
  if (!desired) throw new Error(`no DR operation token at hand for ${cluster}: the step was given no desired DrReplication set`);
  const given = givenOperationToken(desired, cluster);
  if (given) return use(given);
  const client = ctx.clients.get(cluster);
  const token = store.generated(cluster) ?? (await generateOperationToken(client, keySharesOf(desired), store));
  store.setGenerated(cluster, token);
  try {
    await use(token);
  } finally {
    await deleteOperationToken(client, token).then(
      () => store.forgetGenerated(cluster),
      () => undefined,
    );
  }
}

/**
 * Sends a state-changing request once. On an uncertain failure the statuses are read: if the
 * step took effect it counts as done, otherwise the original failure stands.
 */
async function changeState(step: Step, ctx: ApplyContext, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (err) {
    if (!isUncertain(err)) throw err;
    const peer = step.op === 'enable-secondary' || step.op === 'update-primary' ? step.primary : undefined;
    let verdict: boolean | undefined;
    try {
      const [self, primary] = await Promise.all([
        readStatus(ctx.clients.get(step.cluster)),
        peer === undefined ? undefined : readStatus(ctx.clients.get(peer)),
      ]);
      verdict = tookEffect(step, observedFromAttrs(self.attrs), primary && observedFromAttrs(primary.attrs));
    } catch (readErr) {
      throw new Error(
        `${stepAddress(step)}: the outcome is unknown: ${message(err)}, and the DR status could not be read afterwards (${message(readErr)}); run plan again to see where the set stands`,
      );
    }
    if (verdict === true) return;
    throw new Error(`${message(err)} (the DR status read afterwards shows the step did not take effect)`);
  }
}

function omitEmpty(fields: SecondaryOptions | Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
