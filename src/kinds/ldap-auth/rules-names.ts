import { formatPos, type Diagnostics, type SourcePos } from '../../core/diagnostics.js';
import { segmentProblem } from '../../core/path-segment.js';
import { describeAuthMount } from '../auth-mount/mounts.js';
import type { MountGroup } from './mounts.js';
import { reportAtKey } from './report.js';
import type { LdapAuthDocument } from './types.js';
import { canonicalName } from './values.js';

export type Section = 'groups' | 'users';
const NOUN: Record<Section, string> = { groups: 'group', users: 'user' };

/**
 * Group and user names across the merged documents of one mount: each defined once, and no two
 * that the server would see as one once lower-cased (unless case_sensitive_names). A name that
 * cannot be one is left out here: checkNameForms reports it.
 */
export function checkNames(group: MountGroup, diags: Diagnostics): void {
  for (const section of ['groups', 'users'] as const) checkSection(group, section, diags);
}

/** Each group and user name of one document can be a path segment and an item of a list. */
export function checkNameForms(doc: LdapAuthDocument, diags: Diagnostics): void {
  for (const section of ['groups', 'users'] as const) {
    const names = doc.data[section];
    if (names === undefined) continue;
    for (const name of Object.keys(names)) {
      const problem = nameProblem(section, name);
      if (problem) reportAtKey(diags, doc, [section, name], `${NOUN[section]} name ${JSON.stringify(name)} ${problem}`);
    }
  }
}

function checkSection(group: MountGroup, section: Section, diags: Diagnostics): void {
  const noun = NOUN[section];
  // Where a name was first seen: the name and its document, its position worked out only when it
  // is reported (positions cost a parse). No path or closure per name of 10,000 users.
  const seen = new Map<string, FirstSeen>();
  for (const doc of group.docs) {
    for (const name of Object.keys(doc.data[section] ?? {})) {
      if (nameProblem(section, name) !== undefined) continue;
      const key = canonicalName(name, group.caseSensitiveNames);
      const first = seen.get(key);
      if (!first) {
        seen.set(key, { name, doc });
        continue;
      }
      const previous = { name: first.name, at: () => first.doc.source.keyPos([section, first.name]) };
      if (previous.name === name) {
        reportAtKey(diags, doc, [section, name], `${noun} "${name}" is already defined at ${formatPos(previous.at())} (documents of ${describeAuthMount(group)} merge; define each ${noun} once)`);
      } else {
        reportCollision(doc, [section, name], noun, name, previous, diags);
      }
    }
  }
}

interface FirstSeen {
  name: string;
  doc: LdapAuthDocument;
}

/**
 * A group or user name is one path segment (`groups/<name>`), and a group name also stands in
 * a user's comma-separated `groups`, which the service splits on "," and trims.
 */
export function nameProblem(section: Section, name: string): string | undefined {
  return (
    segmentProblem(name) ??
    (name.trim() !== name ? 'must not start or end with spaces (the service trims names in lists)' : undefined) ??
    (section === 'groups' && name.includes(',') ? 'must not contain "," (a user\'s groups are a comma-separated list)' : undefined)
  );
}

function reportCollision(
  doc: LdapAuthDocument,
  path: string[],
  noun: string,
  name: string,
  previous: { name: string; at: () => SourcePos },
  diags: Diagnostics,
): void {
  reportAtKey(
    diags,
    doc,
    path,
    `${noun} "${name}" collides with "${previous.name}" at ${formatPos(previous.at())} once names are lower-cased (case_sensitive_names is false)`,
  );
}
