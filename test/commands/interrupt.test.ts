import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Interruption, signalExitCode, type StopSignal } from '../../src/commands/interrupt.js';

/** A signal source of the test's own (the process's is left alone) and what the run printed. */
function harness() {
  const source = new EventEmitter();
  const exits: number[] = [];
  const lines: string[] = [];
  const interruption = new Interruption(
    { on: (s: StopSignal, l: () => void) => source.on(s, l), off: (s: StopSignal, l: () => void) => source.off(s, l) },
    (code) => exits.push(code),
  );
  interruption.useOutput({ out: (t) => lines.push(`out: ${t}`), err: (t) => lines.push(`err: ${t}`) });
  return { source, exits, lines, interruption };
}

describe('Interruption', () => {
  it('exit codes are 128 + the signal number', () => {
    expect(signalExitCode('SIGHUP')).toBe(129);
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGTERM')).toBe(143);
  });

  it('listens only while armed', () => {
    const { source, interruption } = harness();
    expect(source.listenerCount('SIGTERM')).toBe(0);
    interruption.arm();
    interruption.arm();
    expect(source.listenerCount('SIGTERM')).toBe(1);
    expect(source.listenerCount('SIGINT')).toBe(1);
    // A terminal that goes away (SIGHUP) ends a run as the others do.
    expect(source.listenerCount('SIGHUP')).toBe(1);
    interruption.disarm();
    expect(source.listenerCount('SIGTERM') + source.listenerCount('SIGINT') + source.listenerCount('SIGHUP')).toBe(0);
  });

  it('abandons the command at the first signal: its cleanups (last first), muted output, then the exit code', async () => {
    const { source, exits, lines, interruption } = harness();
    interruption.arm();
    const order: string[] = [];
    interruption.onAbandon(() => void order.push('first registered'));
    const forget = interruption.onAbandon(() => void order.push('removed'));
    interruption.onAbandon(async (signal, output) => {
      await Promise.resolve();
      output.err(`revoked (${signal})`);
      order.push('last registered');
    });
    forget();
    source.emit('SIGTERM');
    expect(interruption.signal).toBe('SIGTERM');
    expect(interruption.mutes).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['last registered', 'first registered']);
    expect(lines).toEqual(['err: interrupted by SIGTERM: stopped; what was in flight is abandoned', 'err: revoked (SIGTERM)']);
    expect(exits).toEqual([143]);
  });

  it('a graceful stop takes the first signal instead; a second signal exits at once, saying so', () => {
    const { exits, lines, interruption } = harness();
    const stops: string[] = [];
    interruption.onAbandon(() => void stops.push('abandoned'));
    interruption.gracefully((signal) => stops.push(signal));
    interruption.receive('SIGINT');
    expect(stops).toEqual(['SIGINT']);
    expect(exits).toEqual([]);
    expect(interruption.mutes).toBe(false);
    interruption.receive('SIGTERM');
    expect(exits).toEqual([143]);
    expect(lines).toEqual([
      "err: SIGTERM again: exiting at once; changes in flight may or may not have been made; a login token of this run is not revoked (it lasts until its TTL ends)",
    ]);
  });
});
