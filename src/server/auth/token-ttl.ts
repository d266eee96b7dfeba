import { formatGoDuration } from '../../values/index.js';

/** The system's default and maximum lease TTL (768h), used when a method sets none. */
export const SYSTEM_DEFAULT_TTL = 2_764_800;
export const SYSTEM_MAX_TTL = 2_764_800;

export interface TtlParams {
  /** token_ttl; 0 means the system default. */
  ttl: number;
  /** token_max_ttl; 0 means the system maximum. */
  maxTtl: number;
  explicitMaxTtl: number;
  period: number;
  /** The mount's tuned default_lease_ttl / max_lease_ttl (0: the system's). */
  mountDefaultTtl?: number;
  mountMaxTtl?: number;
}

/**
 * The lease of a new token, as the service's CalculateTTL computes it at issue time: the max
 * is the smallest of the system max, token_max_ttl and token_explicit_max_ttl; a period
 * replaces the TTL (capped by that max) and is bounded only by an explicit max; otherwise the
 * TTL (or the system default) is capped by the max. Capping yields the service's warning.
 */
export function calculateTokenTtl(p: TtlParams): { ttl: number; warnings: string[] } {
  const warnings: string[] = [];
  let maxTtl = p.mountMaxTtl || SYSTEM_MAX_TTL;
  if (p.maxTtl > 0 && p.maxTtl < maxTtl) maxTtl = p.maxTtl;
  if (p.explicitMaxTtl > 0 && p.explicitMaxTtl < maxTtl) maxTtl = p.explicitMaxTtl;

  if (p.period > 0) {
    let period = p.period;
    if (period > maxTtl) {
      warnings.push(
        `period of "${formatGoDuration(period)}" exceeded the effective max_ttl of "${formatGoDuration(maxTtl)}"; period value is capped accordingly`,
      );
      period = maxTtl;
    }
    return { ttl: period, warnings };
  }
  let ttl = p.ttl > 0 ? p.ttl : p.mountDefaultTtl || SYSTEM_DEFAULT_TTL;
  if (ttl > maxTtl) {
    warnings.push(
      `TTL of "${formatGoDuration(ttl)}" exceeded the effective max_ttl of "${formatGoDuration(maxTtl)}"; TTL value is capped accordingly`,
    );
    ttl = maxTtl;
  }
  return { ttl, warnings };
}

export interface RenewalTtlParams extends TtlParams {
  /** The increment the renewal asks for (0: none). */
  increment: number;
  /** Seconds from the lease's issue until now. */
  elapsed: number;
}

/**
 * The lease of a renewal, as CalculateTTL computes it with an increment and the lease's issue
 * time (sdk/framework/lease.go): the increment, else the method's TTL, else the default; a
 * period instead when there is one; capped by what is left of the max since issue (a periodic
 * lease only by an explicit max). A lease past its max cannot be renewed.
 */
export function calculateRenewalTtl(p: RenewalTtlParams): { ttl: number; warnings: string[] } | { error: string } {
  const warnings: string[] = [];
  let maxTtl = p.mountMaxTtl || SYSTEM_MAX_TTL;
  if (p.maxTtl > 0 && p.maxTtl < maxTtl) maxTtl = p.maxTtl;
  if (p.explicitMaxTtl > 0 && p.explicitMaxTtl < maxTtl) maxTtl = p.explicitMaxTtl;

  let ttl: number;
  let maxValid: number | undefined;
  if (p.period > 0) {
    ttl = p.period;
    if (ttl > maxTtl) {
      warnings.push(`period of "${formatGoDuration(ttl)}" exceeded the effective max_ttl of "${formatGoDuration(maxTtl)}"; period value is capped accordingly`);
      ttl = maxTtl;
    }
    if (p.explicitMaxTtl > 0) maxValid = p.explicitMaxTtl - p.elapsed;
  } else {
    ttl = p.increment > 0 ? p.increment : p.ttl > 0 ? p.ttl : p.mountDefaultTtl || SYSTEM_DEFAULT_TTL;
    maxValid = maxTtl - p.elapsed;
  }
  if (maxValid !== undefined) {
    if (maxValid < 0) return { error: 'past the max TTL, cannot renew' };
    if (ttl > maxValid) {
      warnings.push(`TTL of "${formatGoDuration(ttl)}" exceeded the effective max_ttl of "${formatGoDuration(maxValid)}"; TTL value is capped accordingly`);
      ttl = maxValid;
    }
  }
  return { ttl, warnings };
}
