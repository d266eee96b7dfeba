import { afterEach, describe, expect, it, vi } from 'vitest';
import { processOutput } from '../../src/commands/output.js';

const wasTty = process.stderr.isTTY;
afterEach(() => {
  Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true });
  vi.restoreAllMocks();
});

describe('processOutput', () => {
  it('has a status line only when stderr is a terminal, and it overwrites itself in place', () => {
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    expect(processOutput({}).status).toBeUndefined();

    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = processOutput({});
    out.status?.('Reading live state: 3 requests sent…');
    out.status?.('');
    expect(write.mock.calls.map((c) => c[0])).toEqual(['\r\u001b[KReading live state: 3 requests sent…', '\r\u001b[K']);
  });
});
