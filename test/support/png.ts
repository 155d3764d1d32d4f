/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width and height from its IHDR chunk, after checking the signature; throws for anything else. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG: bad signature');
  // The first chunk must be IHDR: 4 bytes length (13), 4 bytes type, then width and height.
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG: no IHDR first');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
