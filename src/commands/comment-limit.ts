import { Option } from 'commander';
import { DEFAULT_COMMENT_LIMIT, MIN_COMMENT_LIMIT } from '../render/markdown.js';
import { CliError } from './errors.js';

/** `--comment-limit`, for the commands that print a plan as markdown (`plan`, `show`). */
export function commentLimitOption(): Option {
  return new Option(
    '--comment-limit <characters>',
    'with --format markdown: shorten the comment to at most this many characters (GitHub takes 65536; 0 for no limit)',
  ).default(String(DEFAULT_COMMENT_LIMIT));
}

export function parseCommentLimit(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || (n > 0 && n < MIN_COMMENT_LIMIT)) {
    throw new CliError(`--comment-limit must be 0 (no limit) or a whole number of at least ${MIN_COMMENT_LIMIT}`);
  }
  return n;
}
