import type { Reply } from '../http/reply.js';
import type { ClusterServices } from '../services.js';
import type { MountEntry } from '../sys/mount-table.js';
import type { Caller } from './token-store.js';

/** What the method that issued a token is given to renew it (its Backend.AuthRenew). */
interface RenewalContext {
  /** The services of the token's namespace. */
  cluster: ClusterServices;
  /** The auth mount that issued the token. */
  mount: MountEntry;
  caller: Caller;
  /** Seconds asked for (0: none). */
  increment: number;
}

export type MethodRenewal = (ctx: RenewalContext) => Promise<Reply>;
