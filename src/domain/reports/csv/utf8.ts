/** A byte that is not UTF-8, on file line `line`; `atEnd` when the bytes end inside a character. */
export class NotUtf8Error extends Error {
  constructor(
    readonly line: number,
    readonly atEnd: boolean,
  ) {
    super(atEnd ? `the bytes end inside a UTF-8 character (line ${line})` : `a byte on line ${line} is not UTF-8`);
    this.name = 'NotUtf8Error';
  }
}

/**
 * Decodes UTF-8 as it streams, counting lines, and names the line of the first byte that is not UTF-8
 * (NotUtf8Error). Files are checked with it when they are uploaded and again when they are read, so the
 * line named is the same in both places.
 */
export class Utf8Decoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** The line the next byte is on. */
  private line = 1;

  decode(bytes: Uint8Array): string {
    let text: string;
    try {
      text = this.decoder.decode(bytes, { stream: true });
    } catch {
      throw new NotUtf8Error(this.line + newlinesBefore(bytes, firstInvalidUtf8Offset(bytes)), false);
    }
    this.line += newlinesBefore(bytes, bytes.length);
    return text;
  }

  /** The text held back for a character the bytes have not finished; refuses bytes that end inside one. */
  end(): string {
    try {
      return this.decoder.decode();
    } catch {
      throw new NotUtf8Error(this.line, true);
    }
  }
}

/** Offset of the first byte that cannot start or continue a UTF-8 sequence here (bytes.length when none). */
function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      // A sequence cut by the chunk's end is completed by the next chunk: not an error here.
      if (i + k >= bytes.length) return bytes.length;
      if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

function newlinesBefore(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}
