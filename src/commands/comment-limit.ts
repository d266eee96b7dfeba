import { Option } from 'commander';
import { DEFAULT_COMMENT_LIMIT, MIN_COMMENT_LIMIT } from '../render/markdown.js';
import { parseWholeNumber } from './number-option.js';

/** `--comment-limit`, for the commands that print a plan as markdown (`plan`, `show`): a number of characters, 0 for none. */
export function commentLimitOption(): Option {
  return new Option(
    '--comment-limit <characters>',
    'with --format markdown: shorten the comment to at most this many characters (GitHub takes 65536; 0 for no limit)',
  )
    .argParser(parseCommentLimit)
    .default(DEFAULT_COMMENT_LIMIT);
}

function parseCommentLimit(text: string): number {
  return /^0+$/.test(text) ? 0 : parseWholeNumber('--comment-limit', text, { min: MIN_COMMENT_LIMIT, otherwise: '0 (no limit)' });
}
