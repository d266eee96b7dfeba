import { crc32 } from 'node:zlib';

/**
 * Framing of the append-only store log: each record is
 *   u32 LE payload length | u32 LE CRC-32 of the payload | payload bytes.
 * A crash can tear only the tail (records are appended, then fsync'd), so decoding stops at the
 * first record that is incomplete, has a zero/absurd length or a wrong checksum; everything
 * before it is intact.
 */

const HEADER_BYTES = 8;
const MAX_RECORD_BYTES = 1 << 30;

export function encodeRecord(payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, HEADER_BYTES);
  return frame;
}

export interface DecodedLog {
  payloads: Buffer[];
  /** Bytes of intact records; anything after this is a torn tail. */
  validLength: number;
}

export function decodeRecords(data: Buffer): DecodedLog {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(offset);
    if (length === 0 || length > MAX_RECORD_BYTES) break;
    const end = offset + HEADER_BYTES + length;
    if (end > data.length) break;
    const payload = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(payload) !== data.readUInt32LE(offset + 4)) break;
    payloads.push(payload);
    offset = end;
  }
  return { payloads, validLength: offset };
}
