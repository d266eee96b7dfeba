/**
 * Fault injection for end-to-end tests ("server fault mid-apply"). Reachable only through
 * RunningServer.injectFault, never over HTTP.
 */
export interface FaultRule {
  /** Only this cluster (all clusters when absent). */
  cluster?: string;
  /** GET, POST, PUT, DELETE, or LIST for list operations (either form); any when absent. */
  method?: string;
  /**
   * Tested against the request's canonical path (http/request-path.ts): after /v1/, decoded, the
   * namespace header's namespace in front, its trailing slash as sent (a LIST's is not added).
   */
  path: RegExp;
  status: number;
  /** How many matching requests fail (default 1); Infinity for all. */
  times?: number;
  /** Matching requests let through before failing starts (default 0). */
  skip?: number;
  /** The `errors` of the answer (default ["injected fault"]). */
  errors?: string[];
}

interface ActiveRule {
  rule: FaultRule;
  skipLeft: number;
  timesLeft: number;
}

export interface InjectedFault {
  status: number;
  errors: string[];
}

export class FaultInjector {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    this.rules.push({ rule, skipLeft: rule.skip ?? 0, timesLeft: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if a rule claims it (consuming one of its uses). */
  take(cluster: string, method: string, path: string): InjectedFault | undefined {
    if (this.rules.length === 0) return undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.cluster !== undefined && rule.cluster !== cluster) continue;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      rule.path.lastIndex = 0; // a /g or /y regex keeps state between tests
      if (!rule.path.test(path)) continue;
      if (active.skipLeft > 0) {
        active.skipLeft--;
        continue;
      }
      active.timesLeft--;
      if (active.timesLeft <= 0) this.rules = this.rules.filter((r) => r !== active);
      return { status: rule.status, errors: rule.errors ?? ['injected fault'] };
    }
    return undefined;
  }
}
