/**
 * Escapes used where lockstep prints free text into HTML or Markdown (the pull-request
 * comment). Kept here, not in render/, because redaction must know every form a secret can be
 * printed in (see redaction.ts).
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_<>|[\]])/g, '\\$1');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// The same class without `g`: test() then keeps no state between calls.
const HAS_CONTROL = new RegExp(CONTROL.source);

/**
 * Text from a server or a manifest with control characters made visible, so a name or a note
 * can never move the cursor or recolour a terminal (ANSI escape injection).
 */
export function printable(text: string): string {
  // Tested first: nearly every text has none, and then no new string is made.
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
