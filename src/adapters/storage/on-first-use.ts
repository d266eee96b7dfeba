/**
 * `make` run once, on the first call; every later call shares its promise. The stores build
 * their SDK clients this way: each SDK loads only when a store of its type is first used, so a
 * server or a command that never touches that provider does not pay for loading it (the three
 * SDKs together took about 0.6 s of every `lockstep serve` start-up).
 */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
