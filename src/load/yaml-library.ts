import { createRequire } from 'node:module';

type YamlLibrary = typeof import('yaml');
let loaded: YamlLibrary | undefined;

/**
 * The `yaml` library (the careful parser, positions, export), loaded on first use: reading a
 * valid manifest never needs it, and loading it is a noticeable part of start-up. Synchronous,
 * because positions are asked for synchronously.
 */
export function yamlLibrary(): YamlLibrary {
  return (loaded ??= createRequire(import.meta.url)('yaml') as YamlLibrary);
}
