import type { Document, Node } from 'yaml';
import type { ValuePath } from './document.js';
import { yamlLibrary } from './yaml-library.js';

/**
 * The tags of the YAML 1.2 core schema (spec 10.3) and what each node carrying one must hold.
 * Any other tag (`!!python/object`, `!!binary`, `!!set`, a local `!foo`) asks a loader for a
 * kind of value a manifest has no use for: refused, never read as the plain value under it.
 */
const CORE_TAGS: Readonly<Record<string, (node: Node) => boolean>> = {
  'tag:yaml.org,2002:str': (node) => scalarValue(node, (v) => typeof v === 'string'),
  'tag:yaml.org,2002:int': (node) => scalarValue(node, (v) => typeof v === 'number' && Number.isInteger(v)),
  'tag:yaml.org,2002:float': (node) => scalarValue(node, (v) => typeof v === 'number'),
  'tag:yaml.org,2002:bool': (node) => scalarValue(node, (v) => typeof v === 'boolean'),
  'tag:yaml.org,2002:null': (node) => scalarValue(node, (v) => v === null),
  'tag:yaml.org,2002:map': (node) => yamlLibrary().isMap(node),
  'tag:yaml.org,2002:seq': (node) => yamlLibrary().isSeq(node),
  // The non-specific tag: a scalar is a string, a collection what it is.
  '!': () => true,
};

const SHORT_NAMES = 'str, int, float, bool, null, map, seq';

function scalarValue(node: Node, holds: (value: unknown) => boolean): boolean {
  return yamlLibrary().isScalar(node) && holds(node.value);
}

/** `tag:yaml.org,2002:int` as `!!int`, as a manifest writes it. */
function shown(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}

/**
 * Every node whose tag is outside the core schema, or whose value is not what its tag says;
 * `text` is the document's source, to point at the tag rather than the value after it. `path`:
 * where the value is (undefined for a key), so that later stages leave it out instead of
 * reporting it a second time (LoadedDocument.refused).
 */
export function tagProblems(doc: Document.Parsed, text: string): Array<{ message: string; offset: number; path: ValuePath | undefined }> {
  const { visit } = yamlLibrary();
  const found: Array<{ message: string; offset: number; path: ValuePath | undefined }> = [];
  visit(doc, {
    Node(key, node, ancestors) {
      if (node.tag === undefined) return;
      const holds = CORE_TAGS[node.tag];
      const offset = tagOffset(text, node.range?.[0] ?? 0);
      const path = key === 'key' ? undefined : valuePathOf(ancestors, node);
      if (!holds) found.push({ message: `YAML: tag ${shown(node.tag)} is not one of the core schema's (${SHORT_NAMES}); manifests hold plain values only`, offset, path });
      else if (!holds(node)) found.push({ message: `YAML: the value does not match its tag ${shown(node.tag)}`, offset, path });
    },
  });
  return found;
}

/** The value path of `node` from the visitor's ancestors (document, maps, pairs, sequences). */
function valuePathOf(ancestors: readonly unknown[], node: unknown): ValuePath | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  const path: Array<string | number> = [];
  const chain = [...ancestors, node];
  for (let i = 0; i < chain.length - 1; i++) {
    const at = chain[i];
    const next = chain[i + 1];
    if (isSeq(at)) path.push(at.items.indexOf(next));
    else if (isMap(at) && isPair(next)) {
      if (!isScalar(next.key)) return undefined;
      path.push(String(next.key.value));
    }
  }
  return path;
}

/**
 * Where the tag of the node at `nodeOffset` starts: the last `!` before the node (a tag is
 * written before its node, an anchor aside), back to the start of its word.
 */
function tagOffset(text: string, nodeOffset: number): number {
  const bang = text.lastIndexOf('!', nodeOffset);
  if (bang === -1) return nodeOffset;
  let start = bang;
  while (start > 0 && !/[\s,[{]/.test(text[start - 1]!)) start--;
  return start;
}

/** The library's own warning for a tag it cannot resolve: tagProblems() reports those as errors. */
export const UNRESOLVED_TAG_WARNING = 'TAG_RESOLVE_FAILED';
