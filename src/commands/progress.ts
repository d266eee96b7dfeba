import { formatCount } from '../core/count.js';
import type { Output } from './output.js';

export interface ProgressTiming {
  /** Nothing is shown before this: a quick command never flashes a line. */
  delayMs: number;
  everyMs: number;
}

const PROGRESS_TIMING: ProgressTiming = { delayMs: 1000, everyMs: 250 };

/**
 * While `work` runs, keeps a status line saying how many requests were sent, on a terminal only
 * (`output.status`; scripts reading stderr never see it), and clears it when `work` settles.
 * Reading thousands of objects from a distant server takes a while; this says it is moving.
 */
export async function withRequestProgress<T>(
  output: Output,
  requests: () => number,
  work: Promise<T>,
  timing: ProgressTiming = PROGRESS_TIMING,
): Promise<T> {
  const status = output.status;
  if (!status) return work;
  let shown = false;
  const show = (): void => {
    shown = true;
    const n = requests();
    status(`Reading live state: ${formatCount(n)} request${n === 1 ? '' : 's'} sent…`);
  };
  let ticker: NodeJS.Timeout | undefined;
  const start = setTimeout(() => {
    show();
    ticker = setInterval(show, timing.everyMs);
    ticker.unref();
  }, timing.delayMs);
  start.unref();
  try {
    return await work;
  } finally {
    clearTimeout(start);
    clearInterval(ticker);
    if (shown) status('');
  }
}
