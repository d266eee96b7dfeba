import { ldapEntriesFor, type TestGroup, type TestUser } from './slapd.js';

/** The Planet Express crew: directory users beside the test directory's default people. */
export const CREW = {
  fry: { uid: 'fry', cn: 'Philip Fry', password: 'fry-slurm-pw' },
  leela: { uid: 'leela', cn: 'Turanga Leela', password: 'leela-eye-pw' },
  bender: { uid: 'bender', cn: 'Bender Rodriguez', password: 'bender-bite-pw' },
  hermes: { uid: 'Hermes', cn: 'Hermes Conrad', password: 'hermes-limbo-pw' },
  amy: { uid: 'amy', cn: 'Amy Wong', password: 'amy-mars-pw' },
  zoidberg: { uid: 'zoidberg', cn: 'John Zoidberg', password: 'zoidberg-claw-pw' },
} satisfies Record<string, TestUser>;

/** The crew's directory groups (groupOfNames under ou=groups). */
export const CREW_GROUPS: TestGroup[] = [
  { cn: 'crew', members: ['fry', 'leela', 'bender'] },
  { cn: 'Management', members: ['leela', 'Hermes'] },
  { cn: 'science', members: ['amy', 'zoidberg'] },
];

/** LDIF of the crew and their groups, under `suffix`. */
export function planetExpressLdif(suffix = 'dc=example,dc=com'): string {
  return ldapEntriesFor(suffix, { users: Object.values(CREW), groups: CREW_GROUPS });
}
